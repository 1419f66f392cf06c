"""The Discord surface, in five layers; a module imports only from its own layer or those below.

1. **Commands** (the top): the ``/game`` cog (:mod:`cogs.game`), each game's command group
   (:mod:`cogs.xisk`, :mod:`cogs.nxs`, :mod:`cogs.nexo` with :mod:`cogs.nexo_choices`), and what
   they do (:mod:`cogs.actions`, :mod:`cogs.playbypost`, :mod:`cogs.records`, :mod:`cogs.ratings`,
   :mod:`cogs.export`, :mod:`cogs.rules`, :mod:`cogs.spectating`).
2. **Posting**: what goes out when an announcement is delivered: the delivery cog
   (:mod:`cogs.delivery`), the live board (:mod:`cogs.board`), hand DMs (:mod:`cogs.hands`),
   reminders (:mod:`cogs.reminders`), spectator copies (:mod:`cogs.spectate`) and the replay
   (:mod:`cogs.replay`).
3. **The board's menus** (:mod:`cogs.picker`): a move picked step by step, from select menus
   and number buttons built out of the buttons below.
4. **UI pieces**: buttons, menus and pagers (:mod:`cogs.buttons`, :mod:`cogs.prompts`,
   :mod:`cogs.seating`, :mod:`cogs.takeback`); a click acts through the bot (``bot.play_move``) or
   the table service, never by importing a command.
5. **Base** (the bottom): the bot class (:mod:`cogs.client`, which imports no cog), the shared
   replies (:mod:`cogs.replies`) and a game's surface with its defaults (:mod:`cogs.surface`).

Each cog registers its own buttons and hooks when it loads: the delivery cog is the bot's
announcer, the ``/game`` cog its mover and the owner of the shared buttons. ``pyproject.toml``'s
import-linter contracts check these layers in ``python3 tasks.py test``.
"""
