"""Random rollouts of a game through the PettingZoo environment, each game written as a record
that `referee validate`, `referee ratings` and `referee view` read:

    python python/examples/pettingzoo_rollout.py GAME [GAMES] [SEATS] > games.jsonl
    referee validate games.jsonl

(`pip install "./python[pettingzoo]"` first.) Each agent samples a legal action from its mask.
"""

import sys

from referee.pettingzoo import env


def main(game="pegs", games=3, seats=None):
    environment = env(game, seats=seats)
    for number in range(games):
        environment.reset(seed=number)
        environment.action_space("seat_0").seed(number)
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, info = environment.last()
            if terminated or truncated:
                action = None
            else:
                action = environment.action_space(agent).sample(observation["action_mask"])
            environment.step(action)
        print(environment.game.record(tags={"game": str(number + 1)}))
        print("game %d: %s" % (number + 1, environment.game.outcome()), file=sys.stderr)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "pegs", *[int(a) for a in args[1:3]])
