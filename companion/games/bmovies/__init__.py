"""B Movies: a party game of pitches, votes and popcorn tokens."""
