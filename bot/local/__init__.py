"""The offline terminal front-end: the same commands as the slash commands, typed at a prompt.

Players are named by typed names (`fish new alice bob`, `volcano new alice bob carol`), and `computer`
(`computer:easy`, `computer:hard`) is a computer player, which moves by itself; a move is made for
whoever is to move unless `--as NAME` says otherwise. Each game's commands are its own `new` (and those its
registration asks for: `fish dm`, `volcano best`, `horizon hand`) plus the shared move, board, moves, history,
rules and resign (which asks first). Every post is saved as a PNG in a folder named for the database
(data/renders/bot/ for data/bot.sqlite3; records in data/records/bot/), and its path printed. Clocks run in
real time, and what happens meanwhile (a flag, a computer's move) is printed above the prompt, which is drawn
again. Ctrl-C and Ctrl-D quit at once.

Every line gets an answer and a refusal changes nothing: lines with control or bidirectional characters, or
longer than MAX_LINE, are refused whole; names are checked (`name_problem`: 1 to 32 printable characters, as
on Discord, no slashes); file names are built from match numbers and safe slugs, never from typed text; and a
failure inside the bot is logged and answered in one line, never a traceback.

The modules: `table` (the command table's parts: parsing, refusals, help), `checks` (what typed text must
be), `session` (the state between lines, notices printed, the lookups commands share), `console` (the
keyboard and the screen), the commands (`games`, `people`, `moderation`) and `terminal` (the table and the
loop).
"""

from __future__ import annotations

from bot.local.checks import name_problem
from bot.local.games import GROUPS_SHOWN
from bot.local.table import NEW, game_help, new_flags
from bot.local.terminal import COMMANDS, OWN, Terminal, full_help

__all__ = ["COMMANDS", "GROUPS_SHOWN", "NEW", "OWN", "Terminal", "full_help", "game_help", "name_problem", "new_flags"]
