"""What a reader sees: the table, the chat and the standings as a player or a spectator
reads them, built from the game and its seats, and the caches that keep them a while."""
