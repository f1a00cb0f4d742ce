"""Policies above the checked path: undo, correction and take-back; turn timers; bots.
"""
