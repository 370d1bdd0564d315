"""A Discord play-by-post board-game bot (and its offline terminal twin).

This package imports nothing heavy at the top level, so `python3 -m bot` can bootstrap its own
virtualenv before discord.py, Pillow or aiosqlite are installed.
"""
