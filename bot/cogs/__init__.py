"""Discord cogs: one GroupCog per game (on the shared GameCog), /mod, and general commands."""
