#!/usr/bin/env python3
"""A Madang bot in the bot protocol (docs/bot-protocol.md): a random legal move.

It plays any game: it reads one JSON message per line on standard input and writes
its answers, one per line, on standard output. Try it in the arena:

    madang arena matgo --a cmd:"python3 examples/bots/random_bot.py" --b greedy
"""

import json
import random
import sys

PROTOCOL = 1
rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else None)  # optional seed


def answer(message):
    """The reply to one message, or None for the messages that need none."""
    if message["type"] == "hello":
        return {"id": message["id"], "protocol": PROTOCOL}
    if message["type"] == "request":
        return {"id": message["id"], "move": rng.choice(message["legal"])}
    return None  # start, end, and any type a later version adds


for line in sys.stdin:
    reply = answer(json.loads(line))
    if reply is not None:
        print(json.dumps(reply), flush=True)
