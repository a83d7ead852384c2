"""Attention Drills: exercises and worked solutions on score → softmax → blend."""

__version__ = "0.1.0"
