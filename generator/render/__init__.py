"""One renderer per output format; renderers format, they never compute."""
