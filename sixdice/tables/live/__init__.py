"""Live entry points: the WebSocket consumer, its connect path, and the host's commands.
"""
