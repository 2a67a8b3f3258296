"""asv benchmarks of resamplex (run against the installed package; see README "Benchmarks")."""
