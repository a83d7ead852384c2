"""Typst: fonts and the compiler of this process (`compiler`), and the compile
processes beside it (`pool`)."""
