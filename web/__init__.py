"""The web table: a page per game in a browser, served beside the bot (:mod:`web.app`).

:mod:`web.timeline` replays a game into its public positions and moves, :mod:`web.hub` carries
each committed change to the open pages, and ``static/`` holds the page, its script and its style.
This layer stands above the Discord cogs (it borrows their per-game surfaces for titles and alt
texts) and below nothing: bot.py mounts it on the HTTP listener.
"""
