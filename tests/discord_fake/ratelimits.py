"""Discord's rate limits, as the fake Discord (tests/discord_fake/) answers them.

What Discord documents (https://discord.com/developers/docs/topics/rate-limits), modelled here:

* **Per-route buckets.** Every answer to a bucketed route carries ``X-RateLimit-Limit``, ``-Remaining``,
  ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds) and ``-Bucket`` (an opaque hash shared by the
  routes of one bucket). A bucket counts per *top-level resource* (its major parameters: ``channel_id``,
  ``guild_id``, or a webhook's id and token), so two channels never share one. Messages to one channel: 5
  per 5 s (the figure Discord's support pages give, and the one the issue tracker quotes); the numbers
  Discord does not publish are `DEFAULT` (generous, as Discord's are for ordinary reads).
* **The global limit**: 50 requests a second per bot token, across every route except interaction
  callbacks and the interaction webhooks (followups, ``@original``), which Discord exempts.
* **429 Too Many Requests** when a bucket (or the global limit) is exceeded: a JSON body with ``message``,
  ``retry_after`` (seconds, float) and ``global``; headers ``Retry-After`` (whole seconds), ``Via`` (discord.py
  treats a 429 without it as a Cloudflare ban), ``X-RateLimit-Scope`` (``user`` or ``global``) and, for
  the global limit, ``X-RateLimit-Global``.
* **Invalid requests**: answers 401, 403 and 429 (but a 429 of scope ``shared``) count; at 10,000 in 10
  minutes Discord bans the IP for a while. The fake counts them and, past the limit, answers every request
  429 without ``Via`` (as Cloudflare does).

`scale` shrinks every window (a test may run 10x faster: 5 posts per 0.5 s) but never turns a limit off;
the fake's own tests and the benches use 1.0, Discord's real numbers.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rule:
    """A bucket's size: `limit` requests per `window` seconds."""

    limit: int
    window: float


MESSAGES = Rule(5, 5.0)
"""Messages created in (or edited in) one channel: 5 per 5 s."""

DEFAULT = Rule(50, 1.0)
"""Every route Discord gives no figure for."""

RULES: tuple[tuple[str, str, Rule], ...] = (
    ("POST", "/channels/{channel_id}/messages", MESSAGES),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", MESSAGES),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", Rule(5, 1.0)),
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me", Rule(1, 0.25)),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me", Rule(1, 0.25)),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads", Rule(10, 10.0)),
    ("POST", "/channels/{channel_id}/threads", Rule(10, 10.0)),
    ("POST", "/channels/{channel_id}/typing", Rule(5, 5.0)),
)
"""Routes with a bucket of their own size (the rest have `DEFAULT`); each line is one bucket."""

GLOBAL = Rule(50, 1.0)
INVALID = Rule(10_000, 600.0)
MAJOR = ("channel_id", "guild_id", "webhook_id", "webhook_token", "interaction_id")
"""The path parameters that split a route's bucket (an interaction's callback: one bucket per interaction)."""


def exempt_from_global(path: str) -> bool:
    """Interaction callbacks and interaction webhooks are not under the global limit."""
    return path.startswith(("/interactions/", "/webhooks/"))


@dataclass
class _Bucket:
    rule: Rule
    hash: str
    used: int = 0
    resets_at: float = 0.0


@dataclass
class Verdict:
    """What the limits say of one request: the headers of its answer, and a 429's body if refused."""

    headers: dict[str, str]
    refused: dict[str, object] | None = None
    banned: bool = False


@dataclass
class RateLimits:
    """The buckets of one bot token; `now` is the event loop's clock (tests never wait on the wall)."""

    scale: float = 1.0
    buckets: dict[tuple[str, tuple[str, ...]], _Bucket] = field(default_factory=dict)
    _global: deque[float] = field(default_factory=deque)
    _invalid: deque[float] = field(default_factory=deque)

    def __post_init__(self) -> None:
        if not self.scale > 0:
            raise ValueError("rate limits can be shrunk, never turned off: scale must be above 0")

    def rule(self, method: str, template: str) -> Rule:
        for rule_method, rule_template, rule in RULES:
            if rule_method == method and rule_template == template:
                return rule
        return DEFAULT

    def check(self, method: str, template: str, params: dict[str, str], now: float) -> Verdict:
        """Count one request to `template` (a spec path) with its path `params` at loop time `now`."""
        if len(self._invalid) >= INVALID.limit:
            self._expire(self._invalid, INVALID, now)
            if len(self._invalid) >= INVALID.limit:
                return Verdict({}, {"message": "You are being blocked from accessing our API temporarily."}, True)
        if not exempt_from_global(template):
            self._expire(self._global, GLOBAL, now)
            if len(self._global) >= GLOBAL.limit:
                retry = self._global[0] + GLOBAL.window * self.scale - now
                self.invalid(now)
                return self._refusal(retry, {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}, True)
            self._global.append(now)
        rule = self.rule(method, template)
        major = tuple(params.get(name, "") for name in MAJOR)
        key = (self._bucket_name(method, template), major)
        bucket = self.buckets.get(key)
        if bucket is None or now >= bucket.resets_at:
            bucket = self.buckets[key] = _Bucket(rule, self._hash(key[0]), 0, now + rule.window * self.scale)
        headers = self._headers(bucket, now)
        if bucket.used >= rule.limit:
            self.invalid(now)
            headers["X-RateLimit-Scope"] = "user"
            refused = self._refusal(bucket.resets_at - now, headers, False)
            return refused
        bucket.used += 1
        return Verdict(self._headers(bucket, now))

    def invalid(self, now: float) -> None:
        """One more 401, 403 or 429 answer in Discord's 10-minute count."""
        self._expire(self._invalid, INVALID, now)
        self._invalid.append(now)

    @property
    def invalid_count(self) -> int:
        return len(self._invalid)

    def quiet_in(self, now: float) -> float:
        """Seconds until every bucket and the global window are fresh again (a new bot starts clean)."""
        ends = [b.resets_at for b in self.buckets.values()]
        if self._global:
            ends.append(self._global[-1] + GLOBAL.window * self.scale)
        return max([0.0, *(end - now for end in ends)])

    def _bucket_name(self, method: str, template: str) -> str:
        """Routes of one RULES line share a bucket; any other route is a bucket of its own."""
        return f"{method} {template}"

    @staticmethod
    def _hash(name: str) -> str:
        return hashlib.sha1(name.encode()).hexdigest()[:16]

    def _headers(self, bucket: _Bucket, now: float) -> dict[str, str]:
        reset_after = max(0.0, bucket.resets_at - now)
        return {
            "X-RateLimit-Limit": str(bucket.rule.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.rule.limit - bucket.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket.hash,
        }

    @staticmethod
    def _refusal(retry: float, headers: dict[str, str], is_global: bool) -> Verdict:
        retry = max(retry, 0.001)
        headers = {**headers, "Retry-After": str(math.ceil(retry)), "Via": "1.1 google"}
        body: dict[str, object] = {"message": "You are being rate limited.", "retry_after": round(retry, 3)}
        return Verdict(headers, {**body, "global": is_global})

    def _expire(self, window: deque[float], rule: Rule, now: float) -> None:
        span = rule.window * (self.scale if rule is not INVALID else 1.0)
        while window and window[0] <= now - span:
            window.popleft()
