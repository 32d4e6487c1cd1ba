"""How things look: texts in every language, renderers, inert names, card pictures."""
