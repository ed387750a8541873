"""Speed and strength benchmarks, run as scripts: ``python bench/<name>.py``."""
