"""PPO with action masks on ``kemps_sim/KempsSeat-v0``, in one file (in the manner of CleanRL's single-file agents).

    python examples/rl/ppo_masked.py --total-steps 200000 --envs 8 --seed 1 --out runs/ppo-masked

One learner sits at seat 0 of a table of the lineup's agents; a Gymnasium vector of seat environments plays several
matches at once. Illegal actions get a logit of -1e9, so the policy samples only what the mask allows. Decisions
are not evenly spaced in Kemps: each transition is discounted by ``gamma ** since_decision`` (the simulated seconds
the environment reports), the semi-Markov form of the return. Writes ``curve.csv`` (steps, episodes finished, their
mean return, wall seconds) and ``policy.pt`` (the network's weights) to ``--out``.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import gymnasium
import numpy as np
import torch
from torch import nn

import kemps_sim.rl  # noqa: F401  (registers kemps_sim/KempsSeat-v0)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total-steps", type=int, default=200_000, help="learner decisions in all")
    parser.add_argument("--envs", type=int, default=8, help="matches played at once")
    parser.add_argument("--rollout", type=int, default=128, help="decisions per environment per update")
    parser.add_argument("--lineup", default="collector,random", help="the other seats (seat 0 learns)")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--gamma", type=float, default=0.97, help="discount per simulated second")
    parser.add_argument("--lam", type=float, default=0.95, help="GAE lambda")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("runs/ppo-masked"))
    args = parser.parse_args()
    if args.total_steps < 1 or args.envs < 1 or args.rollout < 1:
        parser.error("--total-steps, --envs and --rollout must be at least 1")
    return args


class Agent(nn.Module):
    """An actor and a critic on the observation vector."""

    def __init__(self, observations: int, actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(nn.Linear(observations, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh(),
                                    nn.Linear(128, 1))
        self.actor = nn.Sequential(nn.Linear(observations, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh(),
                                   nn.Linear(128, actions))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def act(self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        logits = self.actor(x).masked_fill(~mask, -1e9)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(x)


def main() -> None:
    args = arguments()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    # SAME_STEP: a finished match's environment starts the next one in the same step (its first observation
    # comes back at once), so that every step of the rollout is a real decision.
    envs = gymnasium.make_vec("kemps_sim/KempsSeat-v0", num_envs=args.envs, vectorization_mode="sync",
                              vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP},
                              rules=args.rules, lineup=args.lineup)
    size = envs.single_observation_space["observation"].shape[0]
    agent = Agent(size, int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    steps_per_update = args.envs * args.rollout
    obs_buf = torch.zeros(args.rollout, args.envs, size)
    mask_buf = torch.zeros(args.rollout, args.envs, envs.single_action_space.n, dtype=torch.bool)
    act_buf = torch.zeros(args.rollout, args.envs, dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf, disc_buf = (torch.zeros(args.rollout, args.envs) for _ in range(5))
    obs, _ = envs.reset(seed=args.seed)
    done = torch.zeros(args.envs)
    returns, running = [], np.zeros(args.envs)
    args.out.mkdir(parents=True, exist_ok=True)
    started, steps = time.perf_counter(), 0
    with (args.out / "curve.csv").open("w", newline="") as handle:
        curve = csv.writer(handle)
        curve.writerow(["steps", "episodes", "mean_return", "wall_seconds"])
        while steps < args.total_steps:
            for t in range(args.rollout):
                x = torch.as_tensor(obs["observation"])
                mask = torch.as_tensor(obs["action_mask"]).bool()
                with torch.no_grad():
                    action, logp, _, value = agent.act(x, mask)
                obs_buf[t], mask_buf[t], act_buf[t], logp_buf[t], val_buf[t], done_buf[t] = (
                    x, mask, action, logp, value, done)
                obs, reward, terminated, truncated, info = envs.step(action.numpy())
                ended = np.logical_or(terminated, truncated)
                rew_buf[t] = torch.as_tensor(reward, dtype=torch.float32)
                disc_buf[t] = torch.as_tensor(args.gamma ** info["since_decision"], dtype=torch.float32)
                running += reward
                returns.extend(running[ended].tolist())
                running[ended] = 0.0
                done = torch.as_tensor(ended, dtype=torch.float32)
            steps += steps_per_update
            with torch.no_grad():  # generalised advantage estimation, each step discounted by its own duration
                next_value = agent.value(torch.as_tensor(obs["observation"]))
                advantages = torch.zeros_like(rew_buf)
                gae = torch.zeros(args.envs)
                for t in reversed(range(args.rollout)):
                    following = next_value if t == args.rollout - 1 else val_buf[t + 1]
                    alive = 1.0 - (done if t == args.rollout - 1 else done_buf[t + 1])
                    delta = rew_buf[t] + disc_buf[t] * following * alive - val_buf[t]
                    gae = delta + disc_buf[t] * args.lam * alive * gae
                    advantages[t] = gae
                targets = advantages + val_buf
            flat = [b.reshape(steps_per_update, *b.shape[2:]) for b in (obs_buf, mask_buf, act_buf, logp_buf,
                                                                         advantages, targets)]
            order = np.arange(steps_per_update)
            rng = np.random.default_rng(args.seed + steps)
            for _ in range(args.epochs):
                rng.shuffle(order)
                for chunk in np.array_split(order, args.minibatches):
                    o, m, a, old, adv, ret = (b[chunk] for b in flat)
                    _, logp, entropy, value = agent.act(o, m, a)
                    ratio = (logp - old).exp()
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                    policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                    loss = policy_loss + 0.5 * ((value - ret) ** 2).mean() - args.entropy * entropy.mean()
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                    optimizer.step()
            recent = returns[-50:]
            curve.writerow([steps, len(returns), f"{np.mean(recent):.4f}" if recent else "",
                            f"{time.perf_counter() - started:.1f}"])
            handle.flush()
    torch.save(agent.state_dict(), args.out / "policy.pt")
    envs.close()
    print(f"{steps} decisions, {len(returns)} matches, mean return of the last 50: "
          f"{np.mean(returns[-50:]) if returns else float('nan'):.3f}; written to {args.out}")


if __name__ == "__main__":
    main()
