"""What the chip games share: fixed-limit betting and pots (`betting`), one deal on the
table's stacks (`deal`), the point totals of the counted high-low games (`points`) and the
reveal-order machinery of Old Man 49er and Zero to 55 (`reveal_order`). No game registers
here: each game is a package of `engine.games`."""
