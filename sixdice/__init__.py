"""Six-Dice: the Django project package and the Six-Dice app."""
