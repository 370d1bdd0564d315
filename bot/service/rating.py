"""What a finished game counts for: the Glicko-2 ratings of its players, the leaderboards read from them, and
solitaire's best scores. The maths and the rules of what is rated are bot/ratings.py's; this is the part
that reads and writes the store.

A rated game's rating change is written inside the transaction that stores its end (`rate`, called by
bot/service/ending.py), so a result is never committed without its rating change, nor the reverse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot import posts, ratings
from bot.errors import ServiceError
from bot.games import Termination
from bot.i18n import _
from bot.models import Match
from bot.service.registry import Pending, Registry


def _rated(guild_id: int | None) -> bool:
    return True


class Ratings:
    def __init__(self, registry: Registry, rated: Callable[[int | None], bool] = _rated) -> None:
        self.registry = registry
        self.rated = rated
        """Whether a server's games are rated (its `rated` setting: bot/service/settings.py)."""

    async def rate(self, match: Match, pending: Pending) -> None:
        """Inside the game-ending transaction: update the ratings of a rated game's players (each finished
        game is one rating period for all of them, from their ratings before it; death-match games are
        rated one by one) and leave the over post its `Ratings: ...` line. A server whose games are unrated
        (its setting) changes nobody's rating."""
        if not ratings.is_rated(match.players, match.result) or not self.rated(match.place.guild_id):
            return
        assert match.result is not None
        store, guild = self.registry.store, match.place.guild_id
        stored = await store.ratings_of(guild, match.game, [p.id for p in match.players])
        fresh = [ratings.PlayerRating(guild, match.game, p.id, p.name) for p in match.players]
        before = [replace(stored.get(p.id, new), name=p.name) for p, new in zip(match.players, fresh, strict=True)]
        after = ratings.after_game(before, match.result, self.registry.time.now())
        for rating in after:
            await store.save_rating(rating)
        with posts.publicly(guild):  # the over post's line: the server's language, whoever moved last
            pending.rated = (ratings.change_line(before, after),)

    async def leaderboard(self, guild_id: int | None, game_key: str, limit: int = 10) -> list[ratings.PlayerRating]:
        """A server's best-rated players of one game (None: offline), best first."""
        self.registry.game_or_refuse(game_key)
        if not 1 <= limit <= 100:
            raise ServiceError(_("A leaderboard shows 1 to 100 players."))
        return await self.registry.store.top_ratings(guild_id, game_key, limit)

    async def stats(self, guild_id: int | None, player_id: str) -> list[ratings.PlayerRating]:
        """One player's ratings on a server, a line per game they have played rated."""
        games = self.registry.games
        return [r for r in await self.registry.store.player_ratings(guild_id, player_id) if r.game in games]

    async def solitaire_results(self, game_key: str, guild_id: int | None) -> list[tuple[Match, float]]:
        """A server's finished one-player games that ended by the rules with a win (not resigned, adjudicated,
        flagged or aborted), with their scores, oldest first."""
        self.registry.game_or_refuse(game_key)
        store, results = self.registry.store, []
        for match_id in await store.solo_match_ids(game_key, guild_id):
            match = await store.load_match(match_id)
            result = match.result if match is not None else None
            if match is not None and result is not None and result.termination is Termination.RULES and result.winners:
                results.append((match, result.scores[0]))
        return results
