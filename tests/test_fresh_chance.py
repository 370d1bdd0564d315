"""Attacks on chance (issue 32): a player who takes a move back and plays it again must not see the dice or
the card it showed the first time. A takeback (granted at once against the computer) or a moderator's undo
gives the position a fresh secret seed, a `reseed` line of the move log; replays stay exact, and nobody
reads that seed while the game runs (history, views, records).

The statistics are deterministic: the fresh seeds come from a seeded generator (`Registry.seeds`), and
the bounds are about four standard deviations from what independent chance gives, so a pass is no luck
and the old behaviour (the same outcome every time) fails by far."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from bot import analysis, move_log, posts, records
from bot.games import GAMES
from bot.models import MoveRecord, Player, computer
from bot.service import MatchService
from tests.conftest import ALICE, BOB

pytestmark = pytest.mark.backends  # on SQLite and on PostgreSQL (tests/databases.py)

GEYSER, HORIZON = GAMES["geyser"], GAMES["horizon"]
MODERATOR = Player("local:mod", "mod")
TRIALS = 120


def seeded(service: MatchService, seed: int) -> None:
    """The fresh seeds of this service's takebacks and undos from a seeded generator: the test repeats."""
    rng = random.Random(seed)
    service.registry.seeds = lambda: rng.getrandbits(48)


async def play_until(service: MatchService, match_id: int, wanted: Callable[[Any, str], bool], seed: int) -> str:
    """Random play (seeded) until the seat to move has a move `wanted(state, canonical text)`; returns it."""
    rng = random.Random(seed)
    while True:
        match = await service.get(match_id)
        game = service.game(match)
        moves = [game.canonical(match.state, m) for m in game.legal_moves(match.state)]
        chosen = [m for m in moves if wanted(match.state, m)]
        if chosen:
            return chosen[0]
        seat = game.to_move(match.state)
        await service.move(match_id, match.players[seat].id, rng.choice(moves))


async def take_back(service: MatchService, match_id: int, mover: Player, other: Player, how: str) -> None:
    """Take back the mover's last move: asked and accepted, granted at once (against the computer), or undone."""
    if how == "undo":
        await service.moderation.undo(match_id, MODERATOR)
        return
    asked = await service.takebacks.request(match_id, mover.id)
    if asked.kind == "takeback":  # a person to answer
        await service.takebacks.answer(match_id, other.id, True)
    match = await service.get(match_id)
    assert service.game(match).to_move(match.state) == match.seats_of(mover.id)[0]


async def attack(
    service: MatchService, match_id: int, mover: Player, other: Player, move: str, seen: Callable, how: str
) -> list[Any]:
    """Play `move`, note what the mover saw of its chance, take it back, and again, TRIALS times."""
    outcomes = []
    for _ in range(TRIALS + 1):
        await service.move(match_id, mover.id, move)
        outcomes.append(seen(await service.get(match_id)))
        await take_back(service, match_id, mover, other, how)
    return outcomes


def repeats(outcomes: list[Any]) -> int:
    """How often a replay showed what the try before it showed: what a peeking player would bet on."""
    return sum(a == b for a, b in itertools.pairwise(outcomes))


def at_most(p: float, n: int = TRIALS) -> float:
    """Four standard deviations above the mean of n independent tries that each succeed with chance p."""
    return n * p + 4 * math.sqrt(n * p * (1 - p))


def fits(counts: Counter[Any], expected: dict[Any, float]) -> bool:
    """Pearson's chi-square of the counts against what independent chance expects, within four standard
    deviations of its mean (k - 1 degrees of freedom: mean k - 1, variance 2(k - 1))."""
    assert set(counts) <= set(expected)
    statistic = sum((counts.get(k, 0) - e) ** 2 / e for k, e in expected.items())
    freedom = len(expected) - 1
    return statistic < freedom + 4 * math.sqrt(2 * freedom)


def fire_dice(match: Any) -> tuple[int, int]:
    """The two dice of the firing phase the last Geyser move ended, as its logged text shows them."""
    fire = match.state.last_fire
    assert fire is not None
    return fire


def fires_without_battle(state: Any, text: str) -> bool:
    return "[fire" in text and "battle" not in text


# --- Geyser ---


@pytest.mark.parametrize("how", ["takeback", "undo"])
async def test_geyser_dice_after_a_takeback_against_the_computer_are_fresh(service: MatchService, how: str) -> None:
    seeded(service, 1)
    bot = computer("easy")
    match = await service.create_match("geyser", [ALICE, bot], seed=7)
    move = await play_until(service, match.id, lambda s, t: GEYSER.to_move(s) == 0 and fires_without_battle(s, t), 7)
    dice = await attack(service, match.id, ALICE, bot, move, fire_dice, how)
    assert repeats(dice) <= at_most(1 / 36)  # the old takeback: the same two dice every time
    first = Counter(d[0] for d in dice[1:])
    assert fits(first, dict.fromkeys(range(1, 7), TRIALS / 6))
    assert len(set(dice)) >= 25  # of 36 (independent tries show about 34)


# --- Event Horizon ---


def drawn_and_rolled(match: Any) -> tuple[str, int]:
    """What the Event Horizon mover saw of its chance: the card drawn into its own hand (its view) and the roll."""
    seat = match.state.last_seat
    view = HORIZON.view(match.state, seat)
    return view.hands[seat][-1], view.last_roll


@pytest.mark.parametrize("how", ["takeback", "undo"])
async def test_horizon_card_and_roll_after_a_takeback_are_fresh(service: MatchService, how: str) -> None:
    seeded(service, 2)
    match = await service.create_match("horizon", [ALICE, BOB], seed=7, options={"first": 0})
    move = await play_until(service, match.id, lambda s, t: s.turn == 0 and not s.setup, 7)
    deck = Counter((await service.get(match.id)).state.deck)  # the cards nobody has seen: one of them is drawn
    outcomes = await attack(service, match.id, ALICE, BOB, move, drawn_and_rolled, how)
    same_card = sum((n / deck.total()) ** 2 for n in deck.values())
    assert repeats(outcomes) <= at_most(same_card / 3)  # the old takeback told the top card and the roll
    assert repeats([card for card, _ in outcomes]) <= at_most(same_card)
    rolls = Counter(roll for _, roll in outcomes[1:])
    assert fits(rolls, dict.fromkeys((1, 2, 3), TRIALS / 3))
    cards = Counter(card for card, _ in outcomes[1:])  # drawn from the deck as it holds them, nothing else
    assert fits(cards, {card: TRIALS * n / deck.total() for card, n in deck.items()})


async def test_horizon_hands_and_face_down_cards_stay_after_a_takeback(service: MatchService) -> None:
    seeded(service, 3)
    match = await service.create_match("horizon", [ALICE, BOB], seed=7, options={"first": 0})
    move = await play_until(service, match.id, lambda s, t: s.turn == 0 and not s.setup, 7)
    before = (await service.get(match.id)).state
    await service.move(match.id, ALICE.id, move)
    await take_back(service, match.id, ALICE, BOB, "takeback")
    after = (await service.get(match.id)).state
    for viewer in (None, 0, 1):  # what anyone knew is what it was: only the unseen deck was shuffled again
        assert HORIZON.view(after, viewer) == HORIZON.view(before, viewer)
    assert sorted(after.deck) == sorted(before.deck) and after.seed != before.seed


# --- the fresh seed is logged, replays exactly and stays secret ---


async def test_the_fresh_seed_is_a_log_line_that_replays_and_is_never_shown(service: MatchService) -> None:
    seeded(service, 4)
    match = await service.create_match("geyser", [ALICE, BOB], seed=8)
    move = await play_until(service, match.id, lambda s, t: GEYSER.to_move(s) == 1 and fires_without_battle(s, t), 7)
    mover, other = BOB, ALICE
    for how in ("takeback", "undo", "takeback"):
        await service.move(match.id, mover.id, move)
        await take_back(service, match.id, mover, other, how)
    match = await service.get(match.id)
    log = await service.store.log(match.id)
    reseeds = [line for line in log if line.kind == move_log.RESEED]
    assert len(reseeds) == 3 and match.ply == len(log) == log[-1].ply
    assert all(line.seat == 1 and line.by_id in (BOB.id, MODERATOR.id) for line in reseeds)  # bob's chance
    assert int(reseeds[-1].move) == match.state.seed != match.seed
    assert service.replay(match, log) == match.state  # the whole log rebuilds it, reseeds and all
    history = "\n".join(posts.history_lines(match, log, GEYSER))
    assert not any(line.move in history for line in reseeds)
    assert all(GEYSER.view(match.state, seat).seed is None for seat in (None, 0, 1))
    with pytest.raises(records.StillRunning):  # the record, with every seed, waits for the end
        await records.build_record(service, match.id)
    await service.moderation.abort(match.id, MODERATOR)
    record = records.load_record((await records.build_record(service, match.id)).dumps())
    assert [line.kind for line in record.moves].count(move_log.RESEED) == 3
    assert records.replay_states(record)[-1] == match.state  # the published record replays them
    states, _, _ = analysis.prepare(record, 10)  # and so does the computer's review of the game
    assert states[-1] == match.state and len(analysis.steps_of(GEYSER, log)) == len(states) - 1


@pytest.mark.parametrize(
    ("seed", "replays"), [("9" * 20, True), ("0", True), ("9" * 21, False), ("12x", False), ("", False), ("-5", False)]
)
def test_a_reseed_line_holds_a_whole_number_of_at_most_20_digits(seed: str, replays: bool) -> None:
    """A record read from a file may hold anything: its reseed lines are read before `int()` sees them."""
    played = GEYSER.legal_moves(GEYSER.new(2, 7))[0]
    log = [
        MoveRecord(1, 0, played, 0.0, None),
        MoveRecord(2, 0, played, 0.0, None, move_log.UNDO),
        MoveRecord(3, 0, seed, 0.0, None, move_log.RESEED),
    ]
    if replays:
        (state,) = move_log.positions(GEYSER, 2, 7, {}, log)
        assert state == GEYSER.reseed(GEYSER.new(2, 7), int(seed))
    else:
        with pytest.raises(move_log.ReplayError, match="holds no seed") as refused:
            move_log.positions(GEYSER, 2, 7, {}, log)
        assert seed not in str(refused.value) or not seed  # the seed is never written into a message
