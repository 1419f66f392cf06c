"""Games installed as packages of their own, and their tests (the fourth game: Climb, tests/games/climb)."""
