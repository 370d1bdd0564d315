"""Rules tests for Event Horizon: docs/rules/horizon.md, rule by rule and RULING by RULING.

Race positions are hand-built with `race(...)` from a fresh game: mats are given as {space: card} (a plain
code is face down, placed by the mat's owner; `down`/`up`/`locked` build other slots), every space not named
is empty. The dice are known in advance: the n-th roll of a seed is `_roll(seed, n)`, so `roll_at(...)` finds
a counter from which the seed's rolls are exactly the ones a test needs, and the position starts there.

The hidden-information tests replay many seeded random games and check, position by position, that a view
depends on nothing its seat may not know, and that public event text never names a card still hidden.
"""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from dataclasses import replace

import pytest

from bot.games import GAMES, BadOptions, IllegalMove, InvalidNotation
from bot.games import horizon as horizon_module
from bot.games.horizon import DECK, HIDDEN, HORIZON, HorizonState, Slot, _roll, _shuffled, card_name

SEED = 11
CODES = [f"T{n}" for n in range(1, 9)] + [f"F{n}" for n in range(1, 5)] + [f"B{n}" for n in range(1, 5)] + ["MI", "SW"]
NAMES = {
    **{f"T{n}": f"Move To {n}" for n in range(1, 9)},
    **{f"F{n}": f"Forward {n}" for n in range(1, 5)},
    **{f"B{n}": f"Backward {n}" for n in range(1, 5)},
    "MI": "Mimic",
    "SW": "Swap",
}
NAME_RE = re.compile(r"Move To [1-8]|Forward [1-4]|Backward [1-4]|Mimic|Swap")
CODE_RE = re.compile(r"\b(?:T[1-8]|F[1-4]|B[1-4]|MI|SW)\b", re.IGNORECASE)
EXAMPLES = ("place F2 opp:5", "swap me:5 F2", horizon_module.CARDS_HOW)
"""The notation examples quoted in help and refusal texts (the same for everyone, so they reveal nothing)."""
REST = ("T1", "T2", "T4", "T5")
"""The default deck of a hand-built race: T5 is drawn first."""
NEUTRAL = "place F1 opp:8"
"""A play for seat 0 that changes nothing on its own path (the default hand holds F1)."""


# --- helpers ---------------------------------------------------------------------------------------


def down(card: str, by: int) -> Slot:
    return Slot(card, by, frozenset({by}))


def up(card: str, by: int) -> Slot:
    return Slot(card, by, frozenset({0, 1}), face_up=True)


def locked(card: str, by: int) -> Slot:
    return Slot(card, by, frozenset({by}), locked=True)


def mat(cards: dict[int, str | Slot], owner: int) -> tuple[Slot | None, ...]:
    spaces: list[Slot | None] = [None] * 8
    for space, card in cards.items():
        spaces[space - 1] = down(card, owner) if isinstance(card, str) else card
    return tuple(spaces)


@functools.cache
def roll_at(*wanted: int, seed: int = SEED) -> int:
    """The first roll counter from which the seed's rolls are `wanted`."""
    k = 0
    while not all(_roll(seed, k + i) == w for i, w in enumerate(wanted)):
        k += 1
    return k


def race(
    mine: dict[int, str | Slot] | None = None,
    theirs: dict[int, str | Slot] | None = None,
    *,
    roll: int | tuple[int, ...] | None = None,
    hands: tuple[tuple[str, ...], tuple[str, ...]] = (("F1", "F2", "F3"), ("B1", "B2", "B3")),
    turn: int = 0,
    deck: tuple[str, ...] = REST,
    seed: int = SEED,
    **kw,
) -> HorizonState:
    """A race-phase position: `mine` is seat 0's mat, `theirs` seat 1's; `roll` the next roll(s)."""
    wanted = (roll,) if isinstance(roll, int) else (roll or ())
    return replace(
        HORIZON.new(2, seed, first=0),
        mats=(mat(mine or {}, 0), mat(theirs or {}, 1)),
        hands=hands,
        turn=turn,
        placed=(3, 3),
        deck=deck,
        rolls=roll_at(*wanted, seed=seed) if wanted else 0,
        **kw,
    )


def refusal(state: HorizonState, move: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        HORIZON.play(state, move)
    return str(caught.value)


def answer(state: HorizonState, text: str) -> tuple[str, str]:
    """What `play` says to `text`: its canonical form if accepted, else the refusal's type and message."""
    try:
        HORIZON.play(state, text)
    except IllegalMove as error:
        return type(error).__name__, str(error)
    return "ok", HORIZON.canonical(state, text)


def seen(state: HorizonState, seat: int | None) -> str:
    return HORIZON.dumps(HORIZON.view(state, seat))


def scramble(state: HorizonState, seat: int | None, rng: random.Random) -> HorizonState:
    """Change everything `seat` may not know: the other hands (same length), the face-down cards it did
    not place, the deck's cards (same length) and the seed."""
    hands = tuple(
        hand if owner == seat else tuple(rng.choice(CODES) for _ in hand) for owner, hand in enumerate(state.hands)
    )
    mats = tuple(
        tuple(
            slot
            if slot is None or slot.face_up or slot.placed_by == seat
            else replace(slot, card=rng.choice([c for c in CODES if c != slot.card]))
            for slot in side
        )
        for side in state.mats
    )
    deck = tuple(rng.choice(CODES) for _ in state.deck)
    return replace(state, hands=hands, mats=mats, deck=deck, seed=(state.seed or 0) + 1 + rng.randrange(10**6))


def other(card: str) -> str:
    return "T8" if card != "T8" else "T7"


def visible_changes(state: HorizonState, seat: int | None):
    """(what, changed state) pairs that differ from `state` only in something `seat` may see."""
    if seat is not None and state.hands[seat]:
        hand = state.hands[seat]
        yield (
            "own hand",
            replace(
                state, hands=tuple((other(hand[0]), *hand[1:]) if s == seat else h for s, h in enumerate(state.hands))
            ),
        )
    for owner in (0, 1):
        for i, slot in enumerate(state.mats[owner]):
            if slot is not None and (slot.face_up or slot.placed_by == seat):
                side = list(state.mats[owner])
                side[i] = replace(slot, card=other(slot.card))
                mats = tuple(tuple(side) if o == owner else m for o, m in enumerate(state.mats))
                yield f"{'face-up' if slot.face_up else 'placed'} card on {owner}:{i + 1}", replace(state, mats=mats)
    if state.discard:
        yield "discard", replace(state, discard=(*state.discard[:-1], other(state.discard[-1])))
    yield "positions", replace(state, positions=(state.positions[0] + 1, state.positions[1]))


@functools.cache
def random_games(games: int = 60) -> tuple[tuple[HorizonState, str, HorizonState], ...]:
    """Every (position, move played, position after) of `games` seeded games of random legal moves."""
    plies = []
    for seed in range(games):
        state, rng = HORIZON.new(2, seed), random.Random(seed)
        while HORIZON.to_move(state) is not None:
            move = rng.choice(HORIZON.legal_moves(state))
            after = HORIZON.play(state, move)
            plies.append((state, move, after))
            state = after
    return tuple(plies)


def positions() -> list[HorizonState]:
    return [before for before, _, _ in random_games()] + [random_games()[-1][2]]


def running() -> list[HorizonState]:
    """The positions of games still going: what views must hide (a finished game's view hides no card)."""
    return [state for state in positions() if HORIZON.outcome(state) is None]


# --- identity, the deck and the deal ---------------------------------------------------------------


def test_registry_and_identity():
    assert GAMES["horizon"] is HORIZON
    assert (HORIZON.key, HORIZON.title, HORIZON.min_players, HORIZON.max_players) == (
        "horizon",
        "Event Horizon",
        2,
        2,
    )
    assert set(HORIZON.options.names) == {"first", "turn_cap"}
    assert "place F2 opp:5" in HORIZON.rules_card and "swap me:5 F2" in HORIZON.rules_card


def test_the_deck_is_the_36_cards_of_the_ruling():
    expected = Counter(
        {f"T{n}": 2 for n in range(1, 9)}
        | {f"F{n}": 2 for n in range(1, 5)}
        | {f"B{n}": 2 for n in range(1, 5)}
        | {"MI": 2, "SW": 2}
    )
    assert len(DECK) == 36 and Counter(DECK) == expected
    assert sum(1 for c in DECK if c[0] == "T") == 16
    assert sum(1 for c in DECK if c[0] in "FB") == 16


def test_card_names_follow_the_rules():
    assert {code: card_name(code) for code in CODES} == NAMES
    assert card_name(HIDDEN) == "a hidden card"


@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
def test_the_deal_is_six_each_from_the_seeded_deck(seed):
    state = HORIZON.new(2, seed)
    assert [len(hand) for hand in state.hands] == [6, 6] and len(state.deck) == 24
    assert Counter(state.hands[0] + state.hands[1] + state.deck) == Counter(DECK)
    assert state.discard == () and state.mats == ((None,) * 8, (None,) * 8)
    assert state.positions == (0, 0) and state.escaped == (0, 0) and state.placed == (0, 0)
    assert state.turns == (0, 0) and state.rolls == 0 and state.setup
    assert state.seed == seed and state.winner is None and state.end is None


def test_same_seed_same_deck_different_seeds_differ():
    for seed in range(10):
        assert HORIZON.new(2, seed) == HORIZON.new(2, seed)
    deals = {(HORIZON.new(2, seed).hands, HORIZON.new(2, seed).deck) for seed in range(10)}
    assert len(deals) == 10


def test_first_option_and_its_default_from_the_seed():
    for seed in range(30):
        assert HORIZON.new(2, seed, first=0).turn == 0 and HORIZON.new(2, seed, first=0).first == 0
        assert HORIZON.new(2, seed, first=1).turn == 1 and HORIZON.new(2, seed, first=1).first == 1
        default = HORIZON.new(2, seed)
        assert default.turn == default.first == HORIZON.new(2, seed).first
    assert {HORIZON.new(2, seed).first for seed in range(30)} == {0, 1}


def test_turn_cap_option():
    assert HORIZON.new(2, 0).turn_cap == 200
    assert HORIZON.new(2, 0, turn_cap=5).turn_cap == 5
    assert HORIZON.new(2, 0, turn_cap="7").turn_cap == 7
    assert HORIZON.new(2, 0, turn_cap=1).turn_cap == 1


@pytest.mark.parametrize(
    "options",
    [
        {"first": 2},
        {"first": -1},
        {"first": "0"},
        {"first": True},
        {"turn_cap": 0},
        {"turn_cap": -3},
        {"turn_cap": 10_001},
        {"turn_cap": 1.5},
        {"turn_cap": "many"},
        {"turn_cap": True},
        {"turn_cap": None},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(BadOptions) as caught:
        HORIZON.new(2, 0, **options)
    assert str(caught.value)


@pytest.mark.parametrize("seed", ["1", 1.0, True, None])
def test_a_seed_must_be_a_whole_number(seed):
    with pytest.raises(BadOptions):
        HORIZON.new(2, seed)


def test_a_float_first_seat_is_refused():
    with pytest.raises(BadOptions):
        HORIZON.new(2, 0, first=1.0)


# --- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_setup_alternates_from_the_first_player_three_each_without_draw_or_roll(first):
    state = HORIZON.new(2, 3, first=first)
    deck = state.deck
    for k in range(6):
        seat = (first + k) % 2
        assert HORIZON.to_move(state) == seat and state.setup
        assert state.placed == ((k + (first == 0)) // 2, (k + (first == 1)) // 2)
        state = HORIZON.play(state, HORIZON.legal_moves(state)[0])
        assert state.deck == deck and state.rolls == 0 and state.positions == (0, 0)
        assert state.discard == () and state.turns == (0, 0) and state.last_roll is None
        assert not any("draws" in e or "rolls" in e for e in state.events)
    assert not state.setup and state.placed == (3, 3)
    assert [len(hand) for hand in state.hands] == [3, 3]
    assert sum(slot is not None for side in state.mats for slot in side) == 6
    assert HORIZON.to_move(state) == first
    assert state.events[-1] == "Setup is done: the race begins."


def test_setup_places_any_hand_card_face_down_on_any_empty_space_of_either_mat():
    state = HORIZON.new(2, 4, first=0)
    hand = state.hands[0]
    expected = {f"place {c} {side}:{n}" for c in hand if c != "SW" for side in ("me", "opp") for n in range(1, 9)}
    assert set(HORIZON.legal_moves(state)) == expected
    card = next(c for c in hand if c != "SW")
    state = HORIZON.play(state, f"place {card} opp:5")
    assert state.mats[1][4] == Slot(card, 0, frozenset({0}))
    assert Counter(state.hands[0]) == Counter(hand) - Counter([card])
    assert state.last_play == ("place", 1, 5)
    assert state.events == ("{0} places a card face down on {1}'s space 5.",)
    # the space is now taken, seen from seat 1 as its own space 5
    moves = HORIZON.legal_moves(state)
    assert not any(m.endswith(" me:5") for m in moves) and any(m.endswith(" opp:5") for m in moves)
    card = next(c for c in state.hands[1] if c != "SW")
    assert refusal(state, f"place {card} me:5") == "me:5 is not empty: cards go on empty spaces."


def test_setup_own_mat_placement():
    state = HORIZON.new(2, 4, first=1)
    card = next(c for c in state.hands[1] if c != "SW")
    state = HORIZON.play(state, f"PLACE {card.lower()} ME:2")
    assert state.mats[1][1] == Slot(card, 1, frozenset({1})) and state.mats[0] == (None,) * 8
    assert state.events == ("{1} places a card face down on their space 2.",)


def test_swap_is_never_placed_and_cannot_be_played_in_setup():
    state = HORIZON.new(2, 0, first=0)
    assert "SW" in state.hands[0]
    assert not any("SW" in m or m.startswith("swap") for m in HORIZON.legal_moves(state))
    assert refusal(state, "place SW me:1") == "Swap is never placed on a mat: play it with swap me:5 F2."
    assert refusal(state, "place sw opp:3") == "Swap is never placed on a mat: play it with swap me:5 F2."
    other_card = next(c for c in state.hands[0] if c != "SW")
    state = HORIZON.play(state, f"place {other_card} me:1")
    state = HORIZON.play(state, HORIZON.legal_moves(state)[0])
    assert "Setup is for placing cards" in refusal(state, f"swap me:1 {state.hands[0][0]}")
    # and in the race
    later = race(hands=(("SW", "F1", "F2"), ("B1",)))
    assert "Swap is never placed" in refusal(later, "place SW opp:3")
    assert not any("SW" in m for m in HORIZON.legal_moves(later))


# --- a turn ----------------------------------------------------------------------------------------


def test_a_turn_places_then_draws_rolls_and_moves():
    state = race(roll=2)
    rolls = state.rolls
    after = HORIZON.play(state, NEUTRAL)
    assert after.mats[1][7] == Slot("F1", 0, frozenset({0}))
    assert after.hands[0] == ("F2", "F3", "T5") and after.deck == ("T1", "T2", "T4")
    assert after.rolls == rolls + 1 and after.last_roll == 2 and after.positions == (2, 0)
    assert after.turns == (1, 0) and HORIZON.to_move(after) == 1 and after.ply == state.ply + 1
    assert after.last_seat == 0 and after.last_play == ("place", 1, 8) and after.last_chain == ()
    assert after.events == (
        "{0} places a card face down on {1}'s space 8.",
        "{0} draws a card.",
        "{0} rolls 2: token 0 → 2.",
    )


def test_rolls_are_the_seeds_numbered_rolls_from_1_to_3():
    state = race()
    for _ in range(12):
        expected = _roll(state.seed, state.rolls)
        state = play_first(state)
        assert state.last_roll == expected
        assert any(e.startswith(f"{{{state.last_seat}}} rolls {expected}") for e in state.events)
    counts = Counter(_roll(SEED, k) for k in range(3000))
    assert set(counts) == {1, 2, 3} and all(900 < n < 1100 for n in counts.values())


def play_first(state: HorizonState) -> HorizonState:
    """Play a placement on the opponent's mat (it cannot trigger this turn)."""
    return HORIZON.play(state, next((m for m in HORIZON.legal_moves(state) if " opp:" in m), "pass"))


def test_when_the_deck_is_empty_the_discard_is_shuffled_into_a_new_deck():
    discard = ("T1", "T2", "B1", "MI", "F4")
    decks = set()
    for seed in range(6):
        state = race(roll=1, deck=(), discard=discard, seed=seed)
        after = HORIZON.play(state, NEUTRAL)
        drawn = after.hands[0][-1]
        assert after.hands[0][:2] == ("F2", "F3") and len(after.deck) == 4
        assert Counter((*after.deck, drawn)) == Counter(discard)
        assert after.discard == () and after.shuffles == state.shuffles + 1
        assert after.events[1:3] == ("The discard pile (5 cards) is shuffled into a new deck.", "{0} draws a card.")
        assert HORIZON.play(state, NEUTRAL) == after
        decks.add((*after.deck, drawn))
    assert len(decks) > 1


def test_no_card_is_drawn_when_deck_and_discard_are_empty():
    after = HORIZON.play(race(roll=1, deck=(), discard=()), NEUTRAL)
    assert after.hands[0] == ("F2", "F3") and after.deck == () and after.discard == ()
    assert after.events[1] == "No card is left to draw." and after.positions == (1, 0)


def test_pass_with_an_empty_hand_still_draws_and_rolls():
    state = race(roll=3, hands=((), ("B1",)))
    assert HORIZON.legal_moves(state) == ["pass"]
    after = HORIZON.play(state, "PASS")
    assert after.last_play == ("pass",) and after.hands[0] == ("T5",) and after.positions == (3, 0)
    assert after.events == ("{0} has no card to place and passes.", "{0} draws a card.", "{0} rolls 3: token 0 → 3.")
    assert HORIZON.canonical(state, " Pass ") == "pass"


FULL_MINE = {n: "T1" for n in range(1, 9)}
FULL_THEIRS = {n: "B1" for n in range(1, 9)}


def test_pass_when_no_space_is_empty_and_no_swap_is_possible():
    state = race(FULL_MINE, FULL_THEIRS, roll=1, hands=(("F1", "F2", "F3"), ("B1",)))
    assert HORIZON.legal_moves(state) == ["pass"]
    assert "is not empty" in refusal(state, "place F1 opp:8")
    # a Swap with nothing else in hand cannot be played
    assert HORIZON.legal_moves(replace(state, hands=(("SW", "SW"), ()))) == ["pass"]
    # nor on a mat of only face-up and locked cards
    only = {n: up("T1", 1) if n % 2 else locked("T1", 0) for n in range(1, 9)}
    assert HORIZON.legal_moves(race(only, FULL_THEIRS, hands=(("SW", "F2"), ()))) == ["pass"]


def test_pass_is_refused_while_a_card_can_be_placed_or_a_swap_played():
    assert refusal(race(), "pass") == "You can still place a card (or Swap), so you cannot pass."
    full = race(FULL_MINE, FULL_THEIRS, hands=(("SW", "F2"), ()))
    assert set(HORIZON.legal_moves(full)) == {f"swap me:{n} F2" for n in range(1, 9)}
    assert refusal(full, "pass") == "You can still place a card (or Swap), so you cannot pass."


# --- resolving -------------------------------------------------------------------------------------


def test_the_card_under_the_final_space_resolves_and_goes_to_the_discard():
    state = race({3: down("F2", 1)}, roll=3)
    after = HORIZON.play(state, NEUTRAL)
    assert after.positions == (5, 0) and after.mats[0][2] is None
    assert after.discard == ("F2",) and after.last_chain == ((3, "F2", 3, 5),)
    assert after.events[2:] == ("{0} rolls 3: token 0 → 3.", "Space 3 reveals Forward 2: token 3 → 5.")


def test_passing_over_cards_does_nothing_and_the_opponents_mat_is_not_my_path():
    state = race({1: "B1", 2: "B2"}, {3: "T8"}, roll=3)
    after = HORIZON.play(state, NEUTRAL)
    assert after.positions == (3, 0) and after.last_chain == () and after.discard == ()
    assert after.mats[0][:2] == state.mats[0][:2] and after.mats[1][2] == state.mats[1][2]


def test_a_chain_resolves_card_after_card_and_resolved_cards_leave():
    state = race({2: "F2", 4: "T7", 7: "B3"}, roll=2)
    after = HORIZON.play(state, NEUTRAL)
    # 2 (F2) -> 4 (T7) -> 7 (B3) -> 4, now empty: the chain ends there
    assert after.last_chain == ((2, "F2", 2, 4), (4, "T7", 4, 7), (7, "B3", 7, 4))
    assert after.positions == (4, 0) and after.mats[0] == (None,) * 8
    assert after.discard == ("F2", "T7", "B3")
    assert after.events[3:] == (
        "Space 2 reveals Forward 2: token 2 → 4.",
        "Space 4 reveals Move To 7: token 4 → 7.",
        "Space 7 reveals Backward 3: token 7 → 4.",
    )


EIGHT = {1: "T2", 2: "F1", 3: "T4", 4: "F1", 5: "T6", 6: "F2", 8: "B1", 7: "B4"}
"""A chain through all 8 spaces: 1 → 2 → 3 → 4 → 5 → 6 → 8 → 7 → 3 (empty by then)."""


def test_the_longest_possible_chain_is_8_and_never_meets_the_cap_of_20():
    """Every resolution removes its card and a path has 8 spaces, so no chain can reach the RULING's 20."""
    after = HORIZON.play(race(EIGHT, roll=1), NEUTRAL)
    assert [link[0] for link in after.last_chain] == [1, 2, 3, 4, 5, 6, 8, 7]
    assert after.positions == (3, 0) and after.mats[0] == (None,) * 8 and len(after.discard) == 8
    assert not any("chain stops" in e for e in after.events)
    assert horizon_module.CHAIN_CAP == 20


def test_the_chain_cap_stops_the_chain_with_a_public_notice(monkeypatch):
    """The cap itself, checked with a lower cap, since 20 cannot be reached on 8 spaces."""
    monkeypatch.setattr(horizon_module, "CHAIN_CAP", 5)
    after = HORIZON.play(race(EIGHT, roll=1), NEUTRAL)
    assert [link[0] for link in after.last_chain] == [1, 2, 3, 4, 5]
    assert after.positions == (6, 0) and after.mats[0][5] == down("F2", 0)
    assert after.mats[0][6:] == (down("B4", 0), down("B1", 0))
    assert after.events[-1] == "The chain stops after 5 resolutions."


def test_a_chain_ending_on_its_own_at_exactly_the_cap_gets_no_notice(monkeypatch):
    monkeypatch.setattr(horizon_module, "CHAIN_CAP", 8)
    after = HORIZON.play(race(EIGHT, roll=1), NEUTRAL)
    assert len(after.last_chain) == 8 and after.positions == (3, 0)  # the token stopped on an empty space
    assert not any("chain stops" in e for e in after.events)


# --- the cards -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("start", "card", "end"), [(2, "T6", 6), (3, "T1", 1), (1, "T8", 8), (2, "T4", 4)])
def test_move_to_n_goes_to_space_n_of_its_own_path(start, card, end):
    space = start + 1
    after = HORIZON.play(race({space: card}, roll=1, positions=(start, 0)), NEUTRAL)
    assert after.positions == (end, 0) and after.last_chain == ((space, card, space, end),)
    assert after.mats[0][space - 1] is None and after.discard == (card,)


def test_move_to_the_space_it_is_on_does_nothing():
    after = HORIZON.play(race({3: "T3", 4: "F1"}, roll=1, positions=(2, 0)), NEUTRAL)
    assert after.positions == (3, 0) and after.last_chain == ((3, "T3", 3, 3),)
    assert after.events[-1] == "Space 3 reveals Move To 3: the token is already on 3."
    assert after.mats[0][2] is None and after.discard == ("T3",) and after.mats[0][3] == down("F1", 0)


@pytest.mark.parametrize("x", [1, 2, 3, 4])
def test_forward_x(x):
    after = HORIZON.play(race({2: f"F{x}"}, roll=2), NEUTRAL)
    assert after.positions == (2 + x, 0) and after.discard == (f"F{x}",)
    assert after.events[-1] == f"Space 2 reveals Forward {x}: token 2 → {2 + x}."


@pytest.mark.parametrize(("x", "end"), [(1, 2), (2, 1), (3, 0), (4, 0)])
def test_backward_x_and_below_1_back_into_the_black_hole(x, end):
    after = HORIZON.play(race({3: f"B{x}"}, roll=3), NEUTRAL)
    assert after.positions == (end, 0) and after.discard == (f"B{x}",) and after.mats[0][2] is None
    assert after.events[-1] == f"Space 3 reveals Backward {x}: token 3 → {end}."


def test_mimic_copies_the_opponents_card_on_the_same_space_which_stays_face_up():
    state = race({4: down("MI", 1)}, {4: down("F2", 1)}, roll=3, positions=(1, 3))
    after = HORIZON.play(state, NEUTRAL)
    assert after.positions == (6, 3)
    assert after.mats[0][3] is None and after.discard == ("MI",)
    assert after.mats[1][3] == Slot("F2", 1, frozenset({0, 1}), face_up=True)
    assert after.last_chain == ((4, "MI", 4, 6),)
    assert after.events[-2:] == (
        "Space 4 reveals Mimic: {1}'s space 4 turns face up (Forward 2).",
        "It copies Forward 2: token 4 → 6.",
    )
    # known to both now, so every view shows it
    for viewer in (None, 0, 1):
        assert HORIZON.view(after, viewer).mats[1][3].card == "F2"
    # and it still triggers for its owner later
    later = HORIZON.play(replace(after, rolls=roll_at(1)), "place B1 opp:7")
    assert later.positions == (6, 6) and later.mats[1][3] is None and later.discard == ("MI", "F2")


def test_mimic_applies_the_copied_card_as_if_it_were_yours_and_chains():
    state = race({5: "MI", 7: "B2"}, {5: "T7"}, roll=2, positions=(3, 0))
    after = HORIZON.play(state, NEUTRAL)
    # Mimic on 5 copies Move To 7: to 7 on seat 0's own path, where Backward 2 then resolves
    assert after.last_chain == ((5, "MI", 5, 7), (7, "B2", 7, 5))
    assert after.positions == (5, 0) and after.mats[1][4] == up("T7", 1)


@pytest.mark.parametrize("opposite", [None, "MI"])
def test_mimic_does_nothing_facing_an_empty_space_or_a_mimic(opposite):
    theirs = {} if opposite is None else {4: down(opposite, 1)}
    after = HORIZON.play(race({4: "MI"}, theirs, roll=1, positions=(3, 0)), NEUTRAL)
    assert after.positions == (4, 0) and after.mats[0][3] is None and after.discard == ("MI",)
    if opposite is None:
        assert after.events[-1] == "Space 4 reveals Mimic: {1}'s space 4 is empty, so nothing happens."
        assert after.mats[1][3] is None
    else:
        assert after.events[-1] == "Space 4 reveals Mimic: {1}'s space 4 turns face up (Mimic): nothing happens."
        assert after.mats[1][3].card == "MI" and after.mats[1][3].face_up


def test_a_mimic_facing_a_mimic_reveals_it():
    after = HORIZON.play(race({4: "MI"}, {4: down("MI", 1)}, roll=1, positions=(3, 0)), NEUTRAL)
    assert after.mats[1][3].face_up and HORIZON.view(after, None).mats[1][3].card == "MI"


def test_swap_exchanges_a_face_down_card_of_your_own_mat_with_a_hand_card():
    # the card on space 5 was placed there by the opponent: seat 0 learns it by taking it
    state = race({5: down("B3", 1)}, roll=1, hands=(("SW", "F2", "T6"), ("B1",)))
    assert {m for m in HORIZON.legal_moves(state) if m.startswith("swap")} == {"swap me:5 F2", "swap me:5 T6"}
    after = HORIZON.play(state, "Swap ME:5 f2")
    assert after.mats[0][4] == Slot("F2", 0, frozenset({0}), locked=True)
    assert after.hands[0] == ("T6", "B3", "T5") and after.discard == ("SW",)
    assert after.positions == (1, 0) and after.last_play == ("swap", 0, 5)
    assert after.events[0] == (
        "{0} plays Swap on their space 5: the face-down card there goes to their hand,"
        " and a card from their hand takes its place, face down and locked."
    )
    assert HORIZON.view(after, 0).mats[0][4].card == "F2"
    assert HORIZON.view(after, 1).mats[0][4].card == HIDDEN
    assert HORIZON.view(after, None).mats[0][4].card == HIDDEN


def test_swap_refusals():
    state = race(
        {1: locked("F1", 0), 2: up("T3", 1), 3: down("B2", 0)},
        {4: "F4"},
        hands=(("SW", "F2", "T6"), ("B1",)),
    )
    assert set(m for m in HORIZON.legal_moves(state) if m.startswith("swap")) == {"swap me:3 F2", "swap me:3 T6"}
    assert "locked" in refusal(state, "swap me:1 F2")
    assert refusal(state, "swap me:1 F2") == "me:1 is locked: a card put there by a Swap cannot be swapped again."
    assert refusal(state, "swap me:2 F2") == "me:2 is face up: Swap exchanges a face-down card."
    assert refusal(state, "swap me:4 F2") == "me:4 is empty: Swap exchanges a face-down card on your own mat."
    assert refusal(state, "swap me:3 T8") == "You have no T8 in your hand."
    assert refusal(state, "swap me:3 SW") == (
        "Swap puts a card from your hand on the mat, and a Swap cannot go on a mat."
    )
    assert refusal(state, "swap opp:4 F2") == "Swap works on your own mat only: swap me:5 F2."
    no_swap = replace(state, hands=(("F2", "T6"), ("B1",)))
    assert refusal(no_swap, "swap me:3 F2") == "You have no Swap card in your hand."
    assert not any(m.startswith("swap") for m in HORIZON.legal_moves(no_swap))


def test_a_swapped_in_card_cannot_be_swapped_again():
    state = race({5: "B3"}, roll=1, hands=(("SW", "SW", "F2"), ("B1",)))
    after = HORIZON.play(state, "swap me:5 F2")
    again = replace(after, turn=0)
    assert again.hands[0][0] == "SW"
    assert "locked" in refusal(again, "swap me:5 B3")
    assert not any(m.startswith("swap") for m in HORIZON.legal_moves(again))


# --- escaping, winning and the cap -----------------------------------------------------------------


@pytest.mark.parametrize(("start", "roll"), [(6, 3), (7, 2), (8, 1)])
def test_a_token_escapes_by_reaching_exactly_9_with_the_die(start, roll):
    state = race({8: "B4"}, {2: "T1"}, roll=roll, positions=(start, 4))
    after = HORIZON.play(state, NEUTRAL)
    assert after.escaped == (1, 0) and after.positions == (0, 4) and after.winner is None
    assert after.events[-1] == f"{{0}} rolls {roll}: token {start} → 9, it escapes (1 of 3)."
    assert after.mats[0][7] == down("B4", 0) and after.mats[1][1] == state.mats[1][1]  # cards stay
    assert HORIZON.to_move(after) == 1


def test_a_token_escapes_by_card_and_the_next_token_starts_at_0():
    state = race({6: "F3"}, roll=(3, 1, 2), positions=(3, 0))
    after = HORIZON.play(state, NEUTRAL)
    assert after.escaped == (1, 0) and after.positions == (0, 0) and after.last_chain == ((6, "F3", 6, 9),)
    assert after.events[-1] == "Space 6 reveals Forward 3: token 6 → 9, it escapes (1 of 3)."
    after = HORIZON.play(after, "place B1 opp:1")
    after = HORIZON.play(after, "place F2 opp:1")
    assert after.positions == (2, 1) and after.events[-1] == "{0} rolls 2: token 0 → 2."


def test_overshoot_by_die_ends_on_8_and_the_card_there_resolves():
    after = HORIZON.play(race({8: "B2"}, roll=3, positions=(7, 0)), NEUTRAL)
    assert after.positions == (6, 0) and after.escaped == (0, 0) and after.last_chain == ((8, "B2", 8, 6),)
    assert after.events[-2:] == (
        "{0} rolls 3 (past 9, so it stops on 8): token 7 → 8.",
        "Space 8 reveals Backward 2: token 8 → 6.",
    )
    bare = HORIZON.play(race(roll=2, positions=(8, 0)), NEUTRAL)
    assert bare.positions == (8, 0) and bare.escaped == (0, 0)


def test_overshoot_by_card_ends_on_8_and_the_card_there_resolves():
    after = HORIZON.play(race({6: "F4", 8: "B1"}, roll=3, positions=(3, 0)), NEUTRAL)
    assert after.positions == (7, 0) and after.escaped == (0, 0)
    assert after.last_chain == ((6, "F4", 6, 8), (8, "B1", 8, 7))
    assert "Space 6 reveals Forward 4 (past 9, so it stops on 8): token 6 → 8." in after.events


def test_the_third_escape_wins_at_once():
    state = race(roll=2, positions=(7, 5), escaped=(2, 2))
    after = HORIZON.play(state, NEUTRAL)
    assert after.escaped == (3, 2) and after.winner == 0 and HORIZON.to_move(after) is None
    assert after.end == "all 3 tokens escaped" and after.events[-1] == "{0} wins: all 3 tokens escaped."
    outcome = HORIZON.outcome(after)
    assert outcome.winners == frozenset({0}) and outcome.scores == (3.0, 2.0)
    assert outcome.reason == "all 3 tokens escaped" and HORIZON.scores(after) == (3.0, 2.0)
    assert HORIZON.legal_moves(after) == []
    assert refusal(after, "pass") == "The game is over: no more moves."


def test_the_third_escape_by_card_wins_even_on_the_capped_turn():
    state = race(theirs={5: "F4"}, roll=3, positions=(8, 2), escaped=(2, 2), turn_cap=2, turns=(2, 1), turn=1)
    after = HORIZON.play(state, "place B1 opp:8")
    assert after.last_chain == ((5, "F4", 5, 9),) and after.escaped == (2, 3)
    assert after.winner == 1 and after.end == "all 3 tokens escaped" and after.turns == (2, 2)


def test_the_turn_cap_ends_the_game_after_cap_turns_each():
    for seed in range(5):
        state, rng = HORIZON.new(2, seed, turn_cap=3), random.Random(seed)
        count = 0
        while HORIZON.to_move(state) is not None:
            state = HORIZON.play(state, rng.choice(HORIZON.legal_moves(state)))
            count += 1
        assert count == 6 + 6 and state.turns == (3, 3) and state.end.startswith("turn cap")
        assert HORIZON.outcome(state) is not None


def test_the_cap_waits_for_the_second_player_to_finish_the_round():
    state = race(roll=1, turn_cap=2, turns=(1, 1))
    after = HORIZON.play(state, NEUTRAL)
    assert after.turns == (2, 1) and HORIZON.to_move(after) == 1 and after.end is None


def capped(positions: tuple[int, int], escaped: tuple[int, int]) -> HorizonState:
    """Seat 1 plays the last turn of a cap of 2 and rolls 1 (from positions[1])."""
    state = race(roll=1, turn=1, turn_cap=2, turns=(2, 1), positions=positions, escaped=escaped)
    return HORIZON.play(state, "place B1 opp:8")


def test_at_the_cap_more_escaped_tokens_wins():
    after = capped((0, 6), (1, 0))
    assert after.positions == (0, 7) and HORIZON.to_move(after) is None and after.winner == 0
    assert HORIZON.outcome(after).winners == frozenset({0})
    assert after.end == "turn cap: more tokens escaped"
    assert after.events[-1] == "The turn cap (2 each) is reached: {0} wins with more tokens escaped."
    assert capped((8, 0), (0, 1)).winner == 1


def test_at_the_cap_with_escapes_level_the_farther_active_token_wins():
    after = capped((5, 3), (1, 1))
    assert after.winner == 0 and after.end == "turn cap: the farther active token"
    assert after.events[-1] == "The turn cap (2 each) is reached: {0} wins with the farther active token."
    assert capped((4, 4), (0, 0)).winner == 1


def test_at_the_cap_with_everything_level_it_is_a_draw():
    after = capped((4, 3), (2, 2))
    assert after.positions == (4, 4) and after.winner is None and HORIZON.to_move(after) is None
    outcome = HORIZON.outcome(after)
    assert outcome.is_draw and outcome.scores == (2.0, 2.0) and outcome.reason == "turn cap, level"
    assert after.events[-1] == "The turn cap (2 each) is reached with everything level: a draw."


# --- notation --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("place F2 opp:5", "place F2 opp:5"),
        ("PLACE f2 OPP:5", "place F2 opp:5"),
        ("  place   f2   opp : 5 ", "place F2 opp:5"),
        ("Place F3 Me:1", "place F3 me:1"),
        ("place f1 ME:8", "place F1 me:8"),
    ],
)
def test_placement_notation_is_case_insensitive_with_a_canonical_form(text, canonical):
    assert HORIZON.canonical(race(), text) == canonical
    assert HORIZON.play(race(roll=1), text) == HORIZON.play(race(roll=1), canonical)


def test_swap_notation_is_case_insensitive_with_a_canonical_form():
    state = race({5: "B3"}, hands=(("SW", "F2"), ("B1",)))
    for text in ("swap me:5 F2", "SWAP ME:5 f2", " swap  me : 5  F2 "):
        assert HORIZON.canonical(state, text) == "swap me:5 F2"


def test_canonical_names_the_placed_card_as_the_private_move_log():
    assert HORIZON.canonical(race(), "place f2 opp:5") == "place F2 opp:5"


def test_clear_refusals():
    state = race({3: "B2"}, {6: "T1"})
    assert refusal(state, "place T8 opp:5") == "You have no T8 in your hand."
    assert refusal(state, "place F1 me:3") == "me:3 is not empty: cards go on empty spaces."
    assert refusal(state, "place F1 opp:6") == "opp:6 is not empty: cards go on empty spaces."
    assert refusal(state, "pass") == "You can still place a card (or Swap), so you cannot pass."


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "place",
        "place F2",
        "place F2 5",
        "place F2 you:5",
        "place F2 opp:5 now",
        "swap me:5",
        "pass pass",
        "F2 opp:5",
        "x" * 41,
        "place F2 opp:5" + " " * 30 + "x",
        "place F2" + " " * 40 + "opp:5",
        "place F2 opp:5\x00",
        "place F٢ opp:5",
    ],
)
def test_garbage_and_over_long_input_is_invalid_notation(text):
    state = race()
    with pytest.raises(InvalidNotation) as caught:
        HORIZON.play(state, text)
    message = str(caught.value)
    assert "place F2 opp:5" in message and "swap me:5 F2" in message and "pass" in message
    assert len(message) < 300


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("place F5 me:1", "F5 is not a card: the cards are T1-T8 (Move To), F1-F4 (Forward), B1-B4 (Backward), "),
        ("place t9 me:1", "T9 is not a card: "),
        ("swap me:1 X", "X is not a card: "),
        ("place F2 me:9", "me:9 is not a space: the spaces are 1-8, me:1 to me:8 (a token escapes at 9, past the last"),
        ("place T6 opp:9", "opp:9 is not a space: the spaces are 1-8, opp:1 to opp:8 (a token escapes at 9"),
        ("place F2 me:0", "me:0 is not a space: the spaces are 1-8, me:1 to me:8."),
        ("swap me:10 F2", "me:10 is not a space: "),
    ],
)
def test_a_card_or_space_that_does_not_exist_is_named(text, message):
    with pytest.raises(InvalidNotation) as caught:
        HORIZON.play(race(), text)
    assert str(caught.value).startswith(message)


# --- hidden information ----------------------------------------------------------------------------


def test_random_games_cover_the_interesting_cases():
    """The positions below hold hidden cards of both kinds, face-up, locked and swapped cards, reshuffles."""
    plies = random_games()
    assert len(plies) > 1500
    slots = [slot for before, _, _ in plies for side in before.mats for slot in side if slot is not None]
    assert any(s.face_up for s in slots) and any(s.locked for s in slots)
    assert any(s.placed_by == 0 for s in slots) and any(s.placed_by == 1 for s in slots)
    assert sum(move.startswith("swap") for _, move, _ in plies) > 20
    assert any(after.shuffles > 1 for _, _, after in plies)


def test_face_down_cards_are_known_exactly_to_the_seat_that_placed_them():
    for state in positions():
        for side in state.mats:
            for slot in side:
                if slot is not None and not slot.face_up:
                    assert slot.known == frozenset({slot.placed_by})
                if slot is not None and slot.face_up:
                    assert slot.known == frozenset({0, 1})


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_a_view_does_not_depend_on_anything_its_seat_may_not_know(seat):
    rng = random.Random(seat)
    for state in running():
        view = seen(state, seat)
        for _ in range(2):
            changed = scramble(state, seat, rng)
            assert HORIZON.dumps(changed) != HORIZON.dumps(state)
            assert seen(changed, seat) == view


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_a_view_changes_with_everything_its_seat_may_see(seat):
    kinds = Counter()
    for state in running()[::3]:
        view = seen(state, seat)
        for what, changed in visible_changes(state, seat):
            kinds[what.split(" on ")[0]] += 1
            assert seen(changed, seat) != view, what
            if what.startswith("placed"):  # a face-down card: the others' views stay the same
                for others in {None, 0, 1} - {seat}:
                    assert seen(changed, others) == seen(state, others)
    assert kinds["face-up card"] and kinds["discard"]
    if seat is not None:
        assert kinds["own hand"] and kinds["placed card"]


def test_a_view_shows_own_hand_and_own_placed_cards_and_nothing_else():
    for state in running()[::5]:
        for seat in (None, 0, 1):
            view = HORIZON.view(state, seat)
            assert view.seed is None and view.deck == (HIDDEN,) * len(state.deck)
            assert view.discard == state.discard
            for owner in (0, 1):
                expected = state.hands[owner] if owner == seat else (HIDDEN,) * len(state.hands[owner])
                assert view.hands[owner] == expected
                for slot, shown in zip(state.mats[owner], view.mats[owner], strict=True):
                    if slot is None:
                        assert shown is None
                    else:
                        visible = slot.face_up or slot.placed_by == seat
                        assert shown == (slot if visible else replace(slot, card=HIDDEN))


def test_views_round_trip_and_cannot_foresee_chance():
    for state in positions()[::7]:
        for seat in (None, 0, 1):
            view = HORIZON.view(state, seat)
            assert HORIZON.loads(HORIZON.dumps(view)) == view
            assert view.seed is None and '"seed":null' in HORIZON.dumps(view)


def revealed_names(before: HorizonState, move: str, after: HorizonState) -> set[str]:
    """The card names a move's public text may mention: the cards it resolved, the cards face up on the mats
    (a Mimic's copy among them) and a Swap played from the hand."""
    names = {card_name(card) for _, card, _, _ in after.last_chain}
    names |= {card_name(s.card) for side in after.mats for s in side if s is not None and s.face_up}
    if move.startswith("swap"):
        names.add("Swap")
    return names


def test_events_never_name_a_hidden_card():
    for before, move, after in random_games():
        text = " ".join(HORIZON.events(after))
        assert not CODE_RE.search(text), text
        assert set(NAME_RE.findall(text)) <= revealed_names(before, move, after), (move, text)
        if move.startswith("place") and not after.last_chain:
            assert not NAME_RE.search(text), text


def parsed_at(state: HorizonState, move: str) -> tuple:
    """(kind, card, the seat whose mat it goes on, space) of a legal move."""
    found = HORIZON.parse(state, move)
    return found.kind, found.card, state.turn if found.mine else 1 - state.turn, found.space


def still_hidden(after: HorizonState, mat: int, space: int) -> bool:
    slot = after.mats[mat][space - 1]
    return slot is not None and not slot.face_up


def test_events_are_the_same_whichever_card_was_placed_or_swapped_in_or_taken():
    compared = 0
    for before, move, after in random_games()[::2]:
        kind, card, mat, space = parsed_at(before, move)
        if kind == "pass" or not still_hidden(after, mat, space):
            continue
        for other_card in set(before.hands[before.turn]) - {"SW", card}:
            variant = move.replace(f" {card}", f" {other_card}")
            again = HORIZON.play(before, variant)
            if still_hidden(again, mat, space):
                assert HORIZON.events(again) == HORIZON.events(after), (move, variant)
                compared += 1
        if kind == "swap":  # the card taken from the mat does not show either
            taken = before.mats[mat][space - 1]
            side = list(before.mats[mat])
            side[space - 1] = replace(taken, card=other(taken.card))
            mats = tuple(tuple(side) if o == mat else m for o, m in enumerate(before.mats))
            assert HORIZON.events(HORIZON.play(replace(before, mats=mats), move)) == HORIZON.events(after)
    assert compared > 500


def test_events_do_not_depend_on_hands_or_the_deck():
    rng = random.Random(5)
    for before, move, after in random_games()[::3]:
        kind, card, _, _ = parsed_at(before, move)
        keep = {"place": [card], "swap": ["SW", card], "pass": None}[kind]
        hands = tuple(
            tuple(rng.choice(CODES) for _ in hand)
            if owner != before.turn
            else hand
            if keep is None
            else (*keep, *(rng.choice(CODES) for _ in hand[len(keep) :]))
            for owner, hand in enumerate(before.hands)
        )
        deck = tuple(rng.choice(CODES) for _ in before.deck)
        changed = replace(before, hands=hands, deck=deck)
        assert HORIZON.events(HORIZON.play(changed, move)) == HORIZON.events(after), move


def test_a_placement_on_the_opponents_mat_is_not_named_in_public():
    state = race(roll=1, hands=(("F2", "B3", "T6"), ("B1",)))
    after = HORIZON.play(state, "place F2 opp:5")
    text = " ".join(HORIZON.events(after))
    assert "F2" not in text and "Forward 2" not in text and "Forward" not in text
    assert HORIZON.canonical(state, "place F2 opp:5") == "place F2 opp:5"
    for seat in (None, 1):
        assert HORIZON.view(after, seat).mats[1][4].card == HIDDEN
    assert HORIZON.view(after, 0).mats[1][4].card == "F2"
    assert HORIZON.events(HORIZON.play(state, "place B3 opp:5")) == HORIZON.events(after)


def probes(state: HorizonState, rng: random.Random) -> list[str]:
    spaces = rng.sample(range(1, 9), 2)
    texts = [f"place {c} {side}:{n}" for c in CODES for side, n in (("me", spaces[0]), ("opp", spaces[1]))]
    texts += [f"swap me:{n} {c}" for c in CODES for n in spaces]
    return [*texts, "pass", "place ?? me:1", "swap me:1 ??", "hello", "place F2 opp:5 " + "x" * 30]


def test_refusals_name_no_card_but_the_one_typed_and_depend_only_on_the_movers_view():
    rng = random.Random(9)
    checked = 0
    for state in positions()[::4]:
        seat = HORIZON.to_move(state)
        if seat is None:
            continue
        changed = scramble(state, seat, rng)
        for text in probes(state, rng):
            kind, message = answer(state, text)
            assert answer(changed, text) == (kind, message), text
            if kind == "ok":
                continue
            checked += 1
            typed = {code.upper() for code in CODE_RE.findall(text)}
            bare = message
            for example in EXAMPLES:
                bare = bare.replace(example, "")
            assert {code.upper() for code in CODE_RE.findall(bare)} <= typed, (text, message)
            assert set(NAME_RE.findall(bare)) <= {NAMES[c] for c in typed} | {"Swap"}, (text, message)
    assert checked > 5000


# --- determinism and storage -----------------------------------------------------------------------


def test_same_seed_and_moves_give_the_same_game():
    for seed in range(5):
        a, b = HORIZON.new(2, seed), HORIZON.new(2, seed)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while HORIZON.to_move(a) is not None:
            assert HORIZON.dumps(a) == HORIZON.dumps(b)
            a = HORIZON.play(a, rng_a.choice(HORIZON.legal_moves(a)))
            b = HORIZON.play(b, rng_b.choice(HORIZON.legal_moves(b)))
        assert HORIZON.dumps(a) == HORIZON.dumps(b)


def test_loads_dumps_round_trips_every_position():
    for before, _, after in random_games()[::2]:
        for state in (before, after):
            assert HORIZON.loads(HORIZON.dumps(state)) == state
    special = race({1: locked("F1", 0), 2: up("T3", 1), 3: down("B2", 1)}, positions=(2, 7), escaped=(1, 2))
    assert HORIZON.loads(HORIZON.dumps(special)) == special


def test_the_deal_is_the_seeds_shuffle():
    for seed in (0, 5):
        deck = _shuffled(DECK, seed, 0)
        state = HORIZON.new(2, seed)
        assert state.hands == (deck[-6:], deck[-12:-6]) and state.deck == deck[:-12]


# --- hidden information, hand-built: public_move, private_lines and view exactly (issue #17) ---------
#
# The tests above replay random games and check properties; these pin the exact public and private text
# and the exact view of positions built by hand, so that a slip in `public_move`, `private_lines` or
# `view` (a card named, a card hidden from the seat that knows it, a seed left in) fails here on its own.


def table() -> HorizonState:
    """A race position with every kind of slot, seen differently by each seat:

    seat 0's mat: 2 Move To 3 (placed by 0), 5 Backward 2 (placed by 1), 7 Forward 4 face up, 8 Move To 6
    locked (swapped in by 0); seat 1's mat: 1 Forward 3 (placed by 0), 4 Mimic (placed by 1), 6 Backward 1
    face up. Hands of 3 and 3, 4 cards in the deck, 2 in the discard, a seed."""
    return race(
        {2: "T3", 5: down("B2", 1), 7: up("F4", 1), 8: locked("T6", 0)},
        {1: down("F3", 0), 4: "MI", 6: up("B1", 0)},
        hands=(("F1", "F2", "MI"), ("B4", "SW", "T8")),
        discard=("SW", "T2"),
        positions=(3, 1),
        turns=(4, 4),
    )


H = HIDDEN


def expected_view(state: HorizonState, seat: int | None) -> HorizonState:
    """`table()` as `seat` may see it, written out slot by slot."""
    assert state == table() or state == replace(table(), turn=1)
    if seat == 0:
        hands = (("F1", "F2", "MI"), (H, H, H))
        mine = {2: "T3", 5: down(H, 1), 7: up("F4", 1), 8: locked("T6", 0)}
        theirs = {1: down("F3", 0), 4: down(H, 1), 6: up("B1", 0)}
    elif seat == 1:
        hands = ((H, H, H), ("B4", "SW", "T8"))
        mine = {2: down(H, 0), 5: down("B2", 1), 7: up("F4", 1), 8: locked(H, 0)}
        theirs = {1: down(H, 0), 4: "MI", 6: up("B1", 0)}
    else:
        hands = ((H, H, H), (H, H, H))
        mine = {2: down(H, 0), 5: down(H, 1), 7: up("F4", 1), 8: locked(H, 0)}
        theirs = {1: down(H, 0), 4: down(H, 1), 6: up("B1", 0)}
    return replace(state, hands=hands, mats=(mat(mine, 0), mat(theirs, 1)), deck=(H, H, H, H), seed=None)


@pytest.mark.parametrize(
    ("move", "public"),
    [
        ("place F2 opp:5", "place a card on opp:5"),
        ("place T8 me:1", "place a card on me:1"),
        ("place MI opp:8", "place a card on opp:8"),
        ("swap me:5 F2", "swap me:5"),
        ("swap me:1 B4", "swap me:1"),
        ("pass", "pass"),
    ],
)
def test_public_move_names_the_space_never_the_card(move, public):
    assert HORIZON.public_move(move) == public


def test_public_move_is_the_same_whichever_card_was_played():
    for code in set(CODES) - {"SW"}:
        assert HORIZON.public_move(f"place {code} opp:3") == "place a card on opp:3"
        assert HORIZON.public_move(f"place {code} me:7") == "place a card on me:7"
        assert HORIZON.public_move(f"swap me:2 {code}") == "swap me:2"


def test_public_move_of_every_logged_move_of_random_games():
    for before, move, _ in random_games():
        kind, _, mat_seat, space = parsed_at(before, move)
        side = "me" if mat_seat == before.turn else "opp"
        expected = {"place": f"place a card on {side}:{space}", "swap": f"swap me:{space}", "pass": "pass"}[kind]
        assert HORIZON.public_move(HORIZON.canonical(before, move)) == expected, move


def public_record(state: HorizonState, move: str) -> tuple[str, tuple[str, ...], HorizonState]:
    """What everyone may read of a move: the history's line, the event text, the spectator's view after."""
    after = HORIZON.play(state, move)
    return HORIZON.public_move(HORIZON.canonical(state, move)), HORIZON.events(after), HORIZON.view(after, None)


def test_public_record_of_a_setup_placement():
    state = replace(race(), placed=(1, 1))
    public, events, spectator = public_record(state, "place F2 opp:5")
    assert public == "place a card on opp:5"
    assert events == ("{0} places a card face down on {1}'s space 5.",)
    assert spectator.mats[1][4] == down(H, 0) and spectator.hands == ((H, H), (H, H, H))


def test_public_record_of_a_race_placement_on_the_own_mat():
    public, events, spectator = public_record(race(roll=1), "place F3 me:6")
    assert public == "place a card on me:6"
    assert events == (
        "{0} places a card face down on their space 6.",
        "{0} draws a card.",
        "{0} rolls 1: token 0 → 1.",
    )
    assert spectator.mats[0][5] == down(H, 0) and spectator.hands == ((H, H, H), (H, H, H))


def test_public_record_of_a_swap_hides_both_the_card_put_down_and_the_card_taken():
    state = race({5: down("B3", 1)}, roll=1, hands=(("SW", "F2", "T6"), ("B1",)))
    public, events, spectator = public_record(state, "swap me:5 F2")
    assert public == "swap me:5"
    assert events == (
        "{0} plays Swap on their space 5: the face-down card there goes to their hand,"
        " and a card from their hand takes its place, face down and locked.",
        "{0} draws a card.",
        "{0} rolls 1: token 0 → 1.",
    )
    assert spectator.mats[0][4] == locked(H, 0) and spectator.hands == ((H, H, H), (H,))
    assert spectator.discard == ("SW",)  # the Swap is played face up: the only card named
    after = HORIZON.play(state, "swap me:5 F2")
    assert HORIZON.view(after, 1).mats[0][4] == locked(H, 0)  # seat 1 placed B3 there, not F2
    assert HORIZON.view(after, 0).mats[0][4] == locked("F2", 0)
    assert HORIZON.view(after, 0).hands[0] == ("T6", "B3", "T5")


def test_public_record_of_a_pass():
    public, events, spectator = public_record(race(roll=2, hands=((), ("B1",))), "pass")
    assert public == "pass"
    assert events == ("{0} has no card to place and passes.", "{0} draws a card.", "{0} rolls 2: token 0 → 2.")
    assert spectator.hands == ((H,), (H,))


def test_public_record_when_the_placed_card_is_revealed_at_once():
    """The rules reveal a card a token stops on: then, and only then, the text names it."""
    public, events, spectator = public_record(race(roll=1), "place F2 me:1")
    assert public == "place a card on me:1"
    assert events == (
        "{0} places a card face down on their space 1.",
        "{0} draws a card.",
        "{0} rolls 1: token 0 → 1.",
        "Space 1 reveals Forward 2: token 1 → 3.",
    )
    assert spectator.mats[0][0] is None and spectator.discard == ("F2",)
    assert spectator.last_chain == ((1, "F2", 1, 3),)


def test_public_record_of_a_mimic_reveals_the_copied_card_and_nothing_else():
    state = race({4: down("MI", 1), 6: down("T2", 1)}, {4: down("F2", 1), 7: down("B4", 0)}, roll=3, positions=(1, 0))
    public, events, spectator = public_record(state, "place F1 opp:8")
    assert public == "place a card on opp:8"
    assert events == (
        "{0} places a card face down on {1}'s space 8.",
        "{0} draws a card.",
        "{0} rolls 3: token 1 → 4.",
        "Space 4 reveals Mimic: {1}'s space 4 turns face up (Forward 2).",
        "It copies Forward 2: token 4 → 6.",
        "Space 6 reveals Move To 2: token 6 → 2.",
    )
    assert spectator.mats[1][3] == up("F2", 1)  # face up for everyone now
    assert spectator.mats[1][6] == down(H, 0) and spectator.mats[1][7] == down(H, 0)  # still hidden
    assert spectator.discard == ("MI", "T2")


def test_private_lines_name_the_seats_own_hand_and_the_face_down_cards_it_placed():
    state = table()
    assert HORIZON.private_lines(state, 0) == (
        "Your hand: Forward 1 (F1), Forward 2 (F2), Mimic (MI).",
        "Face-down cards you know: your space 2: Move To 3; your space 8: Move To 6; {1}'s space 1: Forward 3.",
    )
    assert HORIZON.private_lines(state, 1) == (
        "Your hand: Backward 4 (B4), Swap (SW), Move To 8 (T8).",
        "Face-down cards you know: your space 4: Mimic; {0}'s space 5: Backward 2.",
    )


def test_private_lines_with_an_empty_hand_and_no_known_card():
    state = race({3: up("F1", 1)}, {2: down("B2", 0)}, hands=((), ("B1",)))
    assert HORIZON.private_lines(state, 0) == (
        "Your hand: no cards.",
        "Face-down cards you know: {1}'s space 2: Backward 2.",
    )
    assert HORIZON.private_lines(state, 1) == ("Your hand: Backward 1 (B1).",)
    assert HORIZON.private_lines(race(hands=((), ())), 1) == ("Your hand: no cards.",)


def test_private_lines_of_a_view_are_the_same_and_those_of_another_seats_view_name_nothing():
    state = table()
    for seat in (0, 1):
        assert HORIZON.private_lines(HORIZON.view(state, seat), seat) == HORIZON.private_lines(state, seat)
        assert HORIZON.private_lines(HORIZON.view(state, 1 - seat), seat) == (
            "Your hand: a hidden card (??), a hidden card (??), a hidden card (??).",
        )


def reference_private_lines(state: HorizonState, seat: int) -> tuple[str, ...]:
    """private_lines by the rules alone: a face-down card is known to the seat that placed it."""
    hand = ", ".join(f"{NAMES[c]} ({c})" for c in state.hands[seat]) or "no cards"
    whose = {seat: "your", 1 - seat: "{" + str(1 - seat) + "}'s"}
    known = [
        f"{whose[owner]} space {n}: {NAMES[slot.card]}"
        for owner in (seat, 1 - seat)
        for n, slot in enumerate(state.mats[owner], 1)
        if slot is not None and not slot.face_up and slot.placed_by == seat
    ]
    return (f"Your hand: {hand}.", *(["Face-down cards you know: " + "; ".join(known) + "."] if known else []))


def test_private_lines_of_random_games_follow_the_rules_and_only_the_seats_view():
    rng = random.Random(17)
    for state in running()[::4]:
        for seat in (0, 1):
            lines = HORIZON.private_lines(state, seat)
            assert lines == reference_private_lines(state, seat)
            assert HORIZON.private_lines(scramble(state, seat, rng), seat) == lines


@pytest.mark.parametrize("seat", [0, 1, None])
def test_the_view_of_each_seat_and_of_a_spectator_exactly(seat):
    state = table()
    view = HORIZON.view(state, seat)
    assert view == expected_view(state, seat)
    # field by field: the own hand as it is, the other's hidden with its size kept, the deck hidden with
    # its size kept, the seed gone, and everything public unchanged
    for owner in (0, 1):
        hand = state.hands[owner]
        assert view.hands[owner] == (hand if owner == seat else (H,) * len(hand)) and len(view.hands[owner]) == 3
    assert view.deck == (H, H, H, H) and view.seed is None and state.seed == SEED
    changed = {name for name in HorizonState.__slots__ if getattr(view, name) != getattr(state, name)}
    assert changed == {"hands", "mats", "deck", "seed"}


@pytest.mark.parametrize("seat", [0, 1, None])
def test_a_finished_games_view_turns_every_card_face_up_and_a_running_games_does_not(seat):
    running = table()
    over = replace(running, turn=None, winner=0, end="seat 0 escaped all three tokens")
    assert HORIZON.outcome(running) is None and HORIZON.outcome(over) is not None
    assert HORIZON.view(running, seat) == expected_view(running, seat)  # hidden while it runs
    assert H in [slot.card for mat in HORIZON.view(running, seat).mats for slot in mat if slot is not None]
    final = HORIZON.view(over, seat)
    assert final == replace(over, seed=None)  # every card as it is; only the seed goes
    assert [slot.card for slot in final.mats[0] if slot is not None] == ["T3", "B2", "F4", "T6"]
    assert [slot.card for slot in final.mats[1] if slot is not None] == ["F3", "MI", "B1"]
    assert final.hands == over.hands and final.deck == over.deck
    assert HORIZON.view(final, seat) == final and HORIZON.loads(HORIZON.dumps(final)) == final


def test_the_last_position_of_a_random_game_shows_its_face_down_cards_to_everyone():
    last = random_games()[-1][2]
    assert HORIZON.outcome(last) is not None
    hidden = [slot for mat in last.mats for slot in mat if slot is not None and not slot.face_up]
    assert hidden  # cards no one turned over during the game
    for seat in (None, 0, 1):
        shown = [slot for mat in HORIZON.view(last, seat).mats for slot in mat if slot is not None]
        assert H not in [slot.card for slot in shown]
        before = random_games()[-1][0]  # one ply earlier the same seat saw less
        if seat is None:
            assert H in [slot.card for mat in HORIZON.view(before, seat).mats for slot in mat if slot is not None]


def test_the_view_hides_exactly_the_face_down_cards_the_seat_does_not_know():
    state = table()
    hidden = {
        seat: [
            (owner, n)
            for owner in (0, 1)
            for n, slot in enumerate(HORIZON.view(state, seat).mats[owner], 1)
            if slot is not None and slot.card == H
        ]
        for seat in (0, 1, None)
    }
    assert hidden == {0: [(0, 5), (1, 4)], 1: [(0, 2), (0, 8), (1, 1)], None: [(0, 2), (0, 5), (0, 8), (1, 1), (1, 4)]}


def test_a_view_of_a_view_reveals_nothing_more():
    state = table()
    spectator = HORIZON.view(state, None)
    for seat in (None, 0, 1):
        view = HORIZON.view(state, seat)
        assert HORIZON.view(view, seat) == view
        for other_seat in {None, 0, 1} - {seat}:
            assert HORIZON.view(view, other_seat) == spectator
    for state in positions()[::25]:
        for seat in (None, 0, 1):
            view = HORIZON.view(state, seat)
            assert HORIZON.view(view, seat) == view
            assert HORIZON.view(view, None) == HORIZON.view(state, None)


@pytest.mark.parametrize("turn", [0, 1])
def test_the_movers_view_lists_the_same_moves_and_refuses_the_same_way(turn):
    state = replace(table(), turn=turn)
    view = HORIZON.view(state, turn)
    assert view == expected_view(state, turn)
    assert HORIZON.legal_moves(view) == HORIZON.legal_moves(state)
    assert HORIZON.to_move(view) == turn and HORIZON.outcome(view) is None
    if turn == 1:  # a Swap may take a card seat 1 cannot read (seat 0's Forward 3 on its space 1)
        assert [m for m in HORIZON.legal_moves(view) if m.startswith("swap")] == [
            f"swap me:{n} {c}" for n in (1, 4) for c in ("T8", "B4")
        ]
    for text in ("place T1 me:3", "place SW opp:2", "place B4 opp:2", "place F1 me:2", "swap me:5 F1", "pass"):
        assert parsed(view, text) == parsed(state, text), text


def parsed(state: HorizonState, text: str) -> tuple:
    """`parse`'s answer: the move read, or the refusal's type and message."""
    try:
        return HORIZON.parse(state, text)
    except IllegalMove as error:
        return type(error).__name__, str(error)
