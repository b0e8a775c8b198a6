"""What every game shares: typed errors, seeded randomness and the game registry."""
