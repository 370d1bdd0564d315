"""Moves as values (python-chess style) and `loads` that refuses what is not a sound state.

`parse(state, text)` gives the engine's own frozen move; `notation(move)` writes it back as the move log
always stored it; `play(state, move)` trusts a parsed move and parses text first. Geyser and Volcano must
apply a move to parse it (its dice; a turn's legality), so their move carries the result and `play` on the
same state does not compute it again. `loads` raises `BadState` for text that is not a state of its game.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import FrozenInstanceError, fields, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import GAMES, Game, IllegalMove
from bot.games.base import BadState
from bot.games.fish import FishMove
from bot.games.geyser import GeyserMove
from bot.games.horizon import DECK, HorizonMove
from bot.games.themiscyra import Turn
from bot.games.volcano import VolcanoTurn

ALL = [GAMES[key] for key in sorted(GAMES)]
each_game = pytest.mark.parametrize("game", ALL, ids=[g.key for g in ALL])
MOVE_TYPES = {
    "fish": FishMove,
    "geyser": GeyserMove,
    "horizon": HorizonMove,
    "themiscyra": Turn,
    "volcano": VolcanoTurn,
}
CARRY_RESULTS = ("geyser", "volcano")
"""The games whose `parse` must play the move, so that their moves carry the state they lead to."""
SEEDS = range(6)
PLIES = 300
"""Random Geyser games wander for thousands of plies; the first few hundred hold every kind of move."""


def seats_for(game: Game, seed: int) -> int:
    return game.min_players + seed % (game.max_players - game.min_players + 1)


def random_game(game: Game, seed: int, plies: int = PLIES) -> list[Any]:
    """The positions of a seeded random game (every seat count in turn), played with parsed moves."""
    return list(_random_game(game.key, seed, plies))


@functools.cache
def _random_game(key: str, seed: int, plies: int) -> tuple[Any, ...]:
    game = GAMES[key]
    rng = random.Random(seed)
    state = game.new(seats_for(game, seed), seed)
    found = [state]
    while game.to_move(state) is not None and len(found) < plies:
        state = game.play(state, game.parse(state, rng.choice(game.legal_moves(state))))
        found.append(state)
    return tuple(found)


def sampled(game: Game, every: int = 7) -> Iterator[Any]:
    """Positions of every seed's game, one in `every`, the last (often finished) one included. Themiscyra
    has hundreds of turns in every position and short games: fewer positions of it."""
    seeds, every = (SEEDS[:1], every * 3) if game.key == "themiscyra" else (SEEDS, every)
    for seed in seeds:
        states = random_game(game, seed)
        yield from states[::every]
        yield states[-1]


TURNS_SAMPLED = 10
"""How many of a Themiscyra position's turns (thousands of them early on) the every-legal-move test checks."""


def legal_moves_to_check(game: Game) -> Iterator[tuple[Any, str]]:
    """(position, legal move) for every legal move of the positions `sampled` gives. Themiscyra lists
    thousands of turns in a position but its games are short: instead, every position of two seeds' games,
    each with a seeded sample of `TURNS_SAMPLED` of its turns (its first and last listed among them)."""
    if game.key != "themiscyra":
        for state in sampled(game):
            for text in game.legal_moves(state):
                yield state, text
        return
    rng = random.Random(8)
    for seed in SEEDS[:2]:
        for state in random_game(game, seed):
            moves = game.legal_moves(state)
            if len(moves) > TURNS_SAMPLED:
                moves = [moves[0], *rng.sample(moves[1:-1], TURNS_SAMPLED - 2), moves[-1]]
            for text in moves:
                yield state, text


def spread(moves: list[str], most: int) -> list[str]:
    """At most `most` of the moves, evenly spread over the list."""
    return moves[:: max(1, len(moves) // most)]


def old_canonical(game: Game, state: Any, move: str) -> str:
    """What the move log stored for a listed legal move before moves were values: the move itself (the
    listing is canonical), and for Geyser the dice it rolled in brackets."""
    if game.key != "geyser":
        return move
    rolls = game.play(state, move).last_rolls
    return f"{move} [{'; '.join(rolls)}]" if rolls else move


def answer(call: Callable[[], Any]) -> tuple[str, Any]:
    """What a call gives: ("ok", result) or the refusal's type and message."""
    try:
        return "ok", call()
    except IllegalMove as error:
        return type(error).__name__, str(error)


# --- parse, notation, play ------------------------------------------------------------------------------


@each_game
def test_every_legal_move_parses_to_a_value_that_writes_and_plays_as_the_text_did(game):
    """Every legal move of the sampled positions (Themiscyra's: a seeded sample of them, at every position
    of two games; `legal_moves_to_check`)."""
    checked = 0
    for state, text in legal_moves_to_check(game):
        move = game.parse(state, text)
        assert type(move) is MOVE_TYPES[game.key]
        assert game.notation(move) == str(move) == old_canonical(game, state, text) == game.canonical(state, text)
        assert game.parse(state, game.notation(move)) == move  # round trip
        assert hash(move) == hash(game.parse(state, text))
        after = game.play(state, move)
        assert after == game.play(state, text)
        if game.key in CARRY_RESULTS:  # an equal state, not this one: computed afresh
            assert after == game.play(replace(state), move)
        checked += 1
    assert checked > 500


@each_game
def test_other_spellings_parse_to_the_same_move(game):
    for state in sampled(game, every=19):
        for text in spread(game.legal_moves(state), 20):
            move = game.parse(state, text)
            for spelling in (text.upper(), f"  {text.lower()} "):
                assert game.parse(state, spelling) == move, spelling
                assert game.play(state, spelling) == game.play(state, move)


@each_game
def test_moves_are_small_frozen_values(game):
    state = random_game(game, 1, plies=10)[-1]
    move = game.parse(state, game.legal_moves(state)[0])
    with pytest.raises(FrozenInstanceError):
        setattr(move, fields(move)[0].name, None)
    assert not hasattr(move, "__dict__")  # slots
    assert "State" not in repr(move)  # what Geyser and Volcano carry stays out of sight


BAD_TEXTS = ["", " ", "pass", "skip", "again", "A1", "a1-a2", "z9", "D4-F3", "e5 e8 @e8", "place F2 opp:5", "x" * 200]


@each_game
def test_refusals_are_the_same_whichever_way_a_move_is_asked_for(game):
    """parse, play and canonical refuse a text with one same error and message."""
    refused = 0
    for states in (random_game(game, seed, plies=120) for seed in SEEDS[:3]):
        for state, later in zip(states, states[5:], strict=False):
            for text in [*BAD_TEXTS, *game.legal_moves(later)[:6]]:
                parsed = answer(lambda s=state, text=text: game.notation(game.parse(s, text)))
                assert answer(lambda s=state, text=text: game.canonical(s, text)) == parsed
                played = answer(lambda s=state, text=text: game.play(s, text))
                if parsed[0] == "ok":
                    assert played[0] == "ok"
                else:
                    assert played == parsed
                    refused += 1
    assert refused > 100


def test_a_volcano_turn_of_several_steps_is_one_value():
    game = GAMES["volcano"]
    found = 0
    for state in sampled(game, every=5):
        if game.to_move(state) is None:
            continue
        steps, here = [], state
        rng = random.Random(len(state.events))
        while game.to_move(here) == game.to_move(state) and len(steps) < 4 and game.legal_moves(here):
            steps.append(rng.choice(game.legal_moves(here)))
            here = game.play(here, steps[-1])
            if here.steps == ():  # the turn ended with that step
                break
        text = ", ".join(steps)
        move = game.parse(state, text.upper().replace(", ", " ; "))
        assert game.notation(move) == text and len(move.steps) == len(steps)
        assert game.parse(state, text) == move
        assert game.play(state, move) == game.play(state, text) == game.play(replace(state), move)
        found += len(steps) > 1
    assert found > 20


def test_a_horizon_move_is_relative_to_the_mover():
    game = GAMES["horizon"]
    state = random_game(game, 2, plies=1)[0]
    seat = game.to_move(state)
    move = game.parse(state, next(m for m in game.legal_moves(state) if " opp:" in m))
    assert move.kind == "place" and move.mine is False
    after = game.play(state, move)
    assert after.last_play == ("place", 1 - seat, move.space)
    assert game.parse(state, str(move)) == move
    card = state.hands[seat][0]
    assert game.parse(state, f"place {card.lower()} me:1") == HorizonMove("place", card, True, 1) or card == "SW"


def test_a_geyser_move_on_a_view_rolls_nothing():
    """A view has no seed, so its dice are unknown: parse reads the move but plays nothing."""
    game = GAMES["geyser"]
    state = random_game(game, 3, plies=40)[-1]
    view = game.view(state, game.to_move(state))
    for text in game.legal_moves(view):
        move = game.parse(view, text)
        played = game.parse(state, text)
        assert move.rolls == () and str(move) == text
        assert (move.kind, move.a, move.b) == (played.kind, played.a, played.b)


@pytest.mark.parametrize("key", CARRY_RESULTS)
def test_a_parsed_move_is_computed_once(key, monkeypatch):
    """Geyser and Volcano apply a move to parse it; play on the same state hands that result on."""
    game = GAMES[key]
    engine = type(game)
    real = engine._apply  # type: ignore[attr-defined]
    calls: list[int] = []

    def counting(self: Any, *args: Any) -> Any:
        calls.append(1)
        return real(self, *args)

    monkeypatch.setattr(engine, "_apply", counting)
    checked = 0
    for state in sampled(game, every=11):
        for text in spread(game.legal_moves(state), 30):
            calls.clear()
            move = game.parse(state, text)
            after = game.play(state, move)
            game.notation(move)
            assert len(calls) == 1, text
            calls.clear()
            assert game.play(state, text) == after and len(calls) == 1
            calls.clear()
            assert game.canonical(state, text) == str(move) and len(calls) == 1
            calls.clear()
            assert game.play(replace(state), move) == after and len(calls) == 1  # another state: afresh
            calls.clear()
            assert game.play(state, replace(move)) == after and len(calls) == 1  # a copy carries nothing
            checked += 1
    assert checked > 100


# --- loads refuses what is not a sound state ----------------------------------------------------------

CARD_CODE = re.compile(r"\b(T[1-8]|F[1-4]|B[1-4]|MI|SW)\b")


def dumps_of(game: Game) -> list[str]:
    """Valid stored texts: a fresh game, positions along the way, a finished one, and views."""
    return list(_dumps_of(game.key))


@functools.cache
def _dumps_of(key: str) -> tuple[str, ...]:
    game = GAMES[key]
    states = [s for seed in SEEDS[:3] for s in random_game(game, seed, plies=60)[::15]]
    states.append(random_game(game, 4, plies=100_000)[-1])
    views = [game.view(s, seat) for s in states[::3] for seat in (None, 0)]
    return tuple(game.dumps(s) for s in (*states, *views))


def refused(game: Game, data: Any) -> str:
    """The message of the refusal of a tampered state (it must be one)."""
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(BadState) as error:
        game.loads(text)
    message = str(error.value)
    assert game.key in message
    if game.hidden_information:
        assert not CARD_CODE.search(message), message
    return message


@each_game
def test_every_position_and_view_round_trips(game):
    for text in dumps_of(game):
        state = game.loads(text)
        assert game.dumps(state) == text and game.loads(game.dumps(state)) == state


@each_game
@pytest.mark.parametrize(
    "text", ["", "{", "not json", "null", "[]", "42", '"fish"', "[" * 100_000, '{"game": null}', "\udcff"]
)
def test_what_is_not_a_json_object_of_the_game_is_refused(game, text):
    refused(game, text)


@each_game
def test_another_games_state_is_refused(game):
    for other in ALL:
        if other is not game:
            assert "state of" in refused(game, other.dumps(other.new(other.min_players, 0)))
    data = json.loads(game.dumps(game.new(game.min_players, 0)))
    refused(game, {**data, "game": "chess"})
    refused(game, {k: v for k, v in data.items() if k != "game"})


OPTIONAL = {"geyser": {"rounds", "starts"}}
"""Fields a state saved before they existed may lack (Geyser's, from before the round cap)."""


@each_game
def test_a_missing_unknown_or_wrongly_typed_field_is_refused(game):
    for text in dumps_of(game)[::4]:
        data = json.loads(text)
        refused(game, {**data, "extra": 1})
        for key, value in data.items():
            if key == "game":
                continue
            if key not in OPTIONAL.get(game.key, set()):
                assert re.search("misses|must hold", refused(game, {k: v for k, v in data.items() if k != key})), key
            for wrong in ({"x": [1]}, [[["deep"]]], 1.5):
                refused(game, {**data, key: wrong})
            if type(value) is int:
                refused(game, {**data, key: True})  # JSON's true is no number
                refused(game, {**data, key: str(value)})
            if isinstance(value, str) and key not in ("end", "last_move", "opening", "layout"):
                refused(game, {**data, key: value + "\x00?"})


def edit(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**json.loads(json.dumps(data)), **changes}


def fish_tampering(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    values, (mine, theirs) = data["values"], data["tokens"]
    yield edit(data, values=values[:-1])
    yield edit(data, values=values[:-1] + "4")
    yield edit(data, values=values[:-1] + "٣")  # a digit, but not one of 0-3
    yield edit(data, values=list(values))
    if mine:
        yield edit(data, tokens=[mine + mine[:1], theirs])  # two tokens on one tile
        yield edit(data, tokens=[mine, theirs + mine[:1]])
        yield edit(data, values=values[: mine[0]] + "0" + values[mine[0] + 1 :])  # a token on a gap
        yield edit(data, tokens=[[*mine[1:], 60], theirs])
    yield edit(data, tokens=[mine, theirs, []])
    yield edit(data, placed=[5, data["placed"][1]])
    yield edit(data, placed=[len(mine) - 1, data["placed"][1]])
    yield edit(data, placed=[0, 0, 0])
    yield edit(data, scores=[-1, 0])
    yield edit(data, turn=2)
    yield edit(data, first=-1)
    yield edit(data, last_seat=3)
    yield edit(data, ply=-1)
    yield edit(data, cleared=[60])


def themiscyra_tampering(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield edit(data, black=data["black"] + " k11")
    yield edit(data, black="a1 b1", white="a1")
    yield edit(data, rings="j10", black="a1", white="b2")
    yield edit(data, rings="a1 a2 a3 a4 a5 a6 a7 a8 a9", black="a1 a2 a3 a4 a5 a6 a7 a8 a9", white="")
    yield edit(data, turn=2)
    yield edit(data, winner=0, turn=1)
    yield edit(data, last=["a1", "a2", "a3"])
    yield edit(data, last=[None, "a2", None, "a3"])
    yield edit(data, last_seat=-1)


def volcano_tampering(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    board, caps = data["board"], data["caps"]
    yield edit(data, board=board[:-1])
    yield edit(data, board=[*board, ""])
    yield edit(data, board=["X1", *board[1:]])
    yield edit(data, board=["R4", *board[1:]])
    yield edit(data, board=["R", *board[1:]])
    yield edit(data, board=[["R1"], *board[1:]])
    yield edit(data, board=["R1R1R1R1R1R1", *board[1:]])  # more than the 5 small reds there are
    yield edit(data, caps=caps[:-1])
    yield edit(data, caps=[*caps[:-1], caps[0]])
    yield edit(data, caps=[*caps[:-1], "f6"])
    yield edit(data, captures=[""] * 7)
    yield edit(data, captures=[])
    yield edit(data, captures=["g1", *data["captures"][1:]])
    yield edit(data, turn=len(data["captures"]))
    yield edit(data, resigned=[len(data["captures"])])
    if data["turn"] is not None:
        yield edit(data, resigned=[data["turn"]])
        yield edit(data, seen=[])
    yield edit(data, seen=["a1 a2 a3 a4"])
    yield edit(data, steps=["b2-c3 "])
    yield edit(data, last_steps=["b2c3"])
    yield edit(data, landings=[["c3", "R9"]])
    yield edit(data, captured_last=[["z9", "R1"]])
    yield edit(data, ply=-5)


def geyser_tampering(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    board = data["board"]
    yield edit(data, board={**board, "a1": [0, 1]})  # water
    yield edit(data, board={**board, "z9": [0, 1]})
    yield edit(data, board={**board, "e6": [data["seats"], 1]})
    yield edit(data, board={**board, "e6": [0, 0]})
    yield edit(data, board={**board, "e6": [0, 1, 1]})
    yield edit(data, board=[[0, 1]])
    yield edit(data, supply=[*data["supply"], 3])
    yield edit(data, supply=[-1, *data["supply"][1:]])
    yield edit(data, supply=[41, *data["supply"][1:]])
    yield edit(data, seats=5, supply=[1] * 5)
    yield edit(data, out=[data["seats"]])
    yield edit(data, phase="setup")
    yield edit(data, phase="over" if data["turn"] is not None else "play")
    yield edit(data, turn=data["seats"])
    yield edit(data, pending=["place", 60])  # f6, the Mother: no geyser to claim
    yield edit(data, pending=["tie", 0, 1])  # water
    yield edit(data, pending=["tie"])
    yield edit(data, pending=[])
    yield edit(data, pending=[["place"], 3])
    yield edit(data, order=[data["seats"]])
    yield edit(data, winners=[7])
    yield edit(data, seven="sometimes")
    yield edit(data, rounds=9)
    yield edit(data, starts="three")
    yield edit(data, dice=-1)
    yield edit(data, last_move=[0, 1])
    yield edit(data, last_battle=[1, 2])
    yield edit(data, last_fire=[7, 1])
    yield edit(data, winner=None)  # as well as winners


def horizon_tampering(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    hands, mats = data["hands"], data["mats"]
    hidden = data["seed"] is None
    yield edit(data, hands=[[*hands[0], "T9"], hands[1]])
    yield edit(data, hands=[[*hands[0], "t1"], hands[1]])
    if not hidden:
        yield edit(data, hands=[[*hands[0], "??"], hands[1]])  # a state with its seed hides nothing
        yield edit(data, hands=[[*hands[0], hands[0][0] if hands[0] else "T1"], hands[1]])  # a third copy
    yield edit(data, deck=[*data["deck"], *DECK])  # more cards than there are
    yield edit(data, discard=[*data["discard"], "MI", "MI", "MI"])
    yield edit(data, hands=[hands[0]])
    yield edit(data, mats=[mats[0]])
    yield edit(data, mats=[mats[0][:7], mats[1]])
    yield edit(data, mats=[[["SW", 0, [0], False, False], *mats[0][1:]], mats[1]])
    for slot in (["F1", 2, [2], False, False], ["F1", 0, [1], False, False], ["??", 0, [0, 1], True, False]):
        yield edit(data, mats=[[slot, *mats[0][1:]], mats[1]], hands=[[], []], deck=[], discard=[])
    yield edit(data, mats=[[["F1", 0, [0], False, False, 1], *mats[0][1:]], mats[1]])
    yield edit(data, mats=[[["F1", 0, [0], 0, False], *mats[0][1:]], mats[1]])
    yield edit(data, positions=[9, 0])
    yield edit(data, positions=[0, 0, 0])
    yield edit(data, escaped=[4, 0])
    yield edit(data, placed=[4, 0])
    yield edit(data, turns=[-1, 0])
    yield edit(data, turn_cap=0)
    yield edit(data, turn=2)
    yield edit(data, winner=data["turn"] if data["turn"] is not None else 2)
    yield edit(data, last_roll=4)
    yield edit(data, last_play=["place", 2, 1])
    yield edit(data, last_play=["place", 0, 9])
    yield edit(data, last_play=["jump"])
    yield edit(data, last_play=[["place"], [0], 1])
    yield edit(data, last_chain=[[1, "??", 0, 1]])
    yield edit(data, last_chain=[[0, "F1", 0, 1]])


TAMPERING = {
    "fish": fish_tampering,
    "themiscyra": themiscyra_tampering,
    "volcano": volcano_tampering,
    "geyser": geyser_tampering,
    "horizon": horizon_tampering,
}


@each_game
def test_values_that_break_the_games_invariants_are_refused(game):
    count = 0
    for text in dumps_of(game):
        for data in TAMPERING[game.key](json.loads(text)):
            refused(game, data)
            count += 1
    assert count > 100


def test_refusals_of_event_horizon_never_name_a_card():
    """Every refusal above is checked by `refused`; here the cards of a real hand are the bait."""
    game = GAMES["horizon"]
    data = json.loads(game.dumps(random_game(game, 0, plies=9)[-1]))
    hand = data["hands"][1]
    for broken in (
        edit(data, hands=[data["hands"][0], [*hand, *hand, *hand]]),
        edit(data, hands=[data["hands"][0], {"cards": hand}]),
        edit(data, hands=[data["hands"][0], [*hand, 7]]),
        edit(data, deck=data["deck"][:-1] + [[data["deck"][-1]]]),
    ):
        refused(game, broken)


def test_a_geyser_state_saved_before_the_round_cap_still_loads():
    game = GAMES["geyser"]
    data = json.loads(game.dumps(random_game(game, 2, plies=80)[-1]))
    old = {k: v for k, v in data.items() if k not in ("rounds", "starts", "winners")}
    state = game.loads(json.dumps({**old, "winner": None}))
    assert state.rounds == 100 and state.starts == "four" and state.winners == ()


# --- any tampering at all: refused with BadState, or a state the engine can work with --------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 130) | st.sampled_from(["", "a1", "R1", "F1", "??", "place", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["a1", "e6", "x"]), inner, max_size=2),
    max_leaves=6,
)
FUZZ = settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
VALID = {game.key: dumps_of(game) for game in ALL}


def paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, the value itself first."""
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*at, index))


def put(value: Any, at: tuple[Any, ...], new: Any) -> Any:
    if not at:
        return new
    copy = json.loads(json.dumps(value))
    holder = copy
    for step in at[:-1]:
        holder = holder[step]
    holder[at[-1]] = new
    return copy


@each_game
@FUZZ
@given(data=st.data())
def test_any_tampered_value_is_refused_or_makes_a_working_state(game, data):
    original = json.loads(data.draw(st.sampled_from(VALID[game.key])))
    where = data.draw(st.sampled_from([p for p in paths(original) if p and p[0] != "game"]))
    tampered = put(original, where, data.draw(JSON))
    try:
        state = game.loads(json.dumps(tampered))
    except BadState as error:
        if game.hidden_information:
            assert not CARD_CODE.search(str(error))
        return
    assert game.loads(game.dumps(state)) == state
    game.to_move(state), game.outcome(state), game.scores(state), game.events(state), game.view(state, None)
    if getattr(state, "seed", 0) is None:  # a view: its moves need what it hides (dice, cards)
        return
    moves = game.legal_moves(state)
    if game.to_move(state) is not None:
        game.play(state, game.parse(state, moves[0]))
