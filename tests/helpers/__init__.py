"""What several test modules share: the handout's example grids, the trace fingerprints."""
