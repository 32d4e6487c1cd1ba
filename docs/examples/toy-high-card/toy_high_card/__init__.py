"""Toy High Card: a game for Dealer's Choice from outside its repository (see plugin.py)."""
