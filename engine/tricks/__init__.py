"""What the trick games (Poke, Poängpoker, Chicago) share: the rules of trick play
(`play`: legal plays, why a card may not be played, who takes a trick) and the deal, the
snapshots' card lists, turn order and the views around it (`deal`)."""
