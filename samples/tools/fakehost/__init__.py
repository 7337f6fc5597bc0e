"""Builders for the gpuforensics fake hosts (see samples/README.md)."""
