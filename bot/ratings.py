"""Glicko-2 ratings, per game and per server: the arithmetic and the rules of what is rated. No I/O.

Why Glicko-2 and not Elo: a play-by-post server has few games per player and long gaps, and Elo's single
number cannot say how sure it is. Glicko-2 keeps a rating deviation (RD) next to the rating, so a newcomer
moves fast and then settles, a leaderboard can mark ratings it is not yet sure of, and a game of several
players is just a rating period with several opponents, which the system handles natively. It needs no
K-factor to tune; lichess rates per game the same way.

Following Glickman, "Example of the Glicko-2 system" (2013): a new player is 1500 / RD 350 / volatility
0.06, the system constant tau is 0.5, and the new volatility is found with the Illinois algorithm.

Choices the issue left open (documented in README's "Ratings"):
- Each finished game is one rating period for its players, all updated at once from their ratings before
  the game. There is no inflation of RD for time away (no periods without games).
- A game of more than two players is, for each player, one period against every other player, with the
  pairwise results read from the final ranking (`pairwise_scores`).
- Only games between people are rated: at least two seats, every seat a different person, no computer
  (`is_rated`). Resignations, flags and adjudications count like any result; an aborted game has none.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot import i18n
from bot.games import Outcome
from bot.i18n import _, ngettext
from bot.models import Player
from bot.wording import article

START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
"""Glickman suggests 0.3 to 1.2; smaller keeps volatility steadier."""
SCALE = 173.7178
"""Glicko-2's scale factor between displayed ratings and its internal units (400 / ln 10)."""
EPSILON = 0.000001
"""Convergence tolerance of the Illinois iteration."""
PROVISIONAL_RD = 110.0
"""Ratings with an RD above this are provisional (marked "?"), as on lichess."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the displayed (Glicko) scale."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One player's rating in one game on one server (guild None: offline), with a tally of results."""

    guild_id: int | None
    game: str
    player_id: str
    name: str
    rating: Rating = Rating()
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    updated_at: float = 0.0

    @property
    def record(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of Glickman's paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """One rating period: `player` against each (opponent's rating before the period, score 1 / 0.5 / 0).

    With no results only the RD grows (step 6 alone), as Glickman says for a player who did not compete.
    """
    mu = (player.rating - START_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        return Rating(player.rating, min(START_RD, math.sqrt(phi * phi + sigma * sigma) * SCALE), sigma)
    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - START_RATING) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(SCALE * new_mu + START_RATING, min(START_RD, SCALE * new_phi), new_sigma)


def pairwise_scores(outcome: Outcome, seats: int) -> list[list[tuple[int, float]]]:
    """For each seat, its (opponent seat, score) against every other seat, from the final ranking.

    RULING (ours): a winner beats every non-winner; winners together (a shared win) draw with each other;
    a draw (no winners) is a draw between everyone; two non-winners are ranked by their scores (more
    wins, equal draws). For two players this is simply win / loss / draw.
    """
    winners = outcome.winners
    scores = list(outcome.scores) + [0.0] * (seats - len(outcome.scores))

    def score(i: int, j: int) -> float:
        if not winners or (i in winners and j in winners):
            return 0.5
        if i in winners:
            return 1.0
        if j in winners:
            return 0.0
        return 1.0 if scores[i] > scores[j] else 0.0 if scores[i] < scores[j] else 0.5

    return [[(j, score(i, j)) for j in range(seats) if j != i] for i in range(seats)]


def is_rated(players: Sequence[Player], outcome: Outcome | None) -> bool:
    """A finished game between people: two or more seats, all different people, no computer."""
    ids = [p.id for p in players]
    return (
        outcome is not None and len(ids) >= 2 and len(set(ids)) == len(ids) and not any(p.is_computer for p in players)
    )


def rate_game(before: Sequence[Rating], outcome: Outcome) -> list[Rating]:
    """Every seat's rating after one game, each computed from the ratings everyone had before it."""
    pairs = pairwise_scores(outcome, len(before))
    return [update(before[i], [(before[j], s) for j, s in pairs[i]]) for i in range(len(before))]


def tally(outcome: Outcome, seat: int) -> str:
    """How a game counts in a player's W-L-D record: "win" (a winner, shared wins too), "draw" (no
    winners), else "loss"."""
    if not outcome.winners:
        return "draw"
    return "win" if seat in outcome.winners else "loss"


def after_game(previous: Sequence[PlayerRating], outcome: Outcome, now: float) -> list[PlayerRating]:
    """The seats' stored ratings after one rated game (by seat; names are the ones they played under)."""
    new = rate_game([p.rating for p in previous], outcome)
    result = []
    for seat, (old, rating) in enumerate(zip(previous, new, strict=True)):
        kind = tally(outcome, seat)
        result.append(
            PlayerRating(
                old.guild_id,
                old.game,
                old.player_id,
                old.name,
                rating,
                old.games + 1,
                old.wins + (kind == "win"),
                old.losses + (kind == "loss"),
                old.draws + (kind == "draw"),
                now,
            )
        )
    return result


def shown(rating: Rating) -> str:
    """A rating as players read it: rounded, "?" when provisional."""
    return f"{rating.rating:.0f}{'?' if rating.provisional else ''}"


def change_line(before: Sequence[PlayerRating], after: Sequence[PlayerRating]) -> str:
    """The game-over post's line: "Ratings: alice 1500? → 1662?, bob 1500? → 1338?"."""
    parts = [f"{a.name} {shown(b.rating)} → {shown(a.rating)}" for b, a in zip(before, after, strict=True)]
    return _("Ratings: {changes}.").format(changes=", ".join(parts))


# --- what leaderboards and stats say (Discord and the terminal alike) ---


def leaderboard_lines(title: str, top: Sequence[PlayerRating], bold: bool = False) -> list[str]:
    """Rank, name, rating ± two RDs (a 95% range), games and W-L-D; provisional ratings marked "?"."""
    if not top:
        if article(title) == "an":
            nobody = _("Nobody has an {game} rating here yet: finish a game between two or more people to get one.")
        else:
            nobody = _("Nobody has a {game} rating here yet: finish a game between two or more people to get one.")
        return [nobody.format(game=title)]
    heading = _("{game} leaderboard").format(game=title)
    heading = f"**{heading}**" if bold else heading
    lines = [
        _("{heading} (Glicko-2; ± is two RDs; ? marks a provisional rating, RD over {rd}):").format(
            heading=heading, rd=f"{PROVISIONAL_RD:.0f}"
        )
    ]
    lines += [
        f"{rank}. {entry.name}: {_rating_text(entry)} · {_games_text(entry)}" for rank, entry in enumerate(top, 1)
    ]
    return lines


def stats_lines(name: str, rows: Sequence[PlayerRating], titles: dict[str, str], bold: bool = False) -> list[str]:
    """One player's ratings, a line per game (`titles`: game key to title)."""
    if not rows:
        return [_("{name} has no rated games here yet.").format(name=name)]
    heading = f"**{name}**" if bold else name
    lines = [_("{name}'s ratings (Glicko-2; ? marks a provisional rating):").format(name=heading)]
    for entry in rows:
        title = titles.get(entry.game, entry.game)
        lines.append(
            _("{game}: {rating} (RD {rd}) · {games}").format(
                game=title, rating=_rating_text(entry), rd=f"{entry.rating.rd:.0f}", games=_games_text(entry)
            )
        )
    return lines


def _rating_text(entry: PlayerRating) -> str:
    return f"{shown(entry.rating)} ±{2 * entry.rating.rd:.0f}"


def _games_text(entry: PlayerRating) -> str:
    """`3 games, 2-1-0 W-L-D`: games played, then wins, losses and draws."""
    return ngettext("{count} game, {record} W-L-D", "{count} games, {record} W-L-D", entry.games).format(
        count=i18n.number(entry.games), record=entry.record
    )
