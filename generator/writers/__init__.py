"""Writers: the only code that touches the disk."""
