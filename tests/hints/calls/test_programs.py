"""Program argv lists (git, kubectl, docker, npm) judged by subcommand and flags."""

from __future__ import annotations

import pytest

from hintgate.hints.calls.judgement import Act
from hintgate.hints.calls.programs import judge_argv


@pytest.mark.parametrize(
    ("argv", "act"),
    [
        ("git status", Act.READ),
        ("git diff HEAD~1", Act.READ),
        ("git branch -a", Act.READ),
        ("git branch feature/x", Act.ADDITIVE),
        ("git branch -D feature/x", Act.DESTRUCTIVE),
        ("git commit -m x", Act.ADDITIVE),
        ("git push origin main", Act.ADDITIVE),
        ("git push --force origin main", Act.DESTRUCTIVE),
        ("git reset --hard HEAD~1", Act.DESTRUCTIVE),
        ("git clean -fd", Act.DESTRUCTIVE),
        ("git clean -n", Act.READ),
        ("kubectl describe deploy api", Act.READ),
        ("kubectl delete pod api-1", Act.DESTRUCTIVE),
        ("kubectl apply -f app.yaml", Act.DESTRUCTIVE),
        ("kubectl apply -f app.yaml --dry-run=server", Act.READ),
        ("kubectl scale deploy api --replicas=0", Act.DESTRUCTIVE),
        ("kubectl rollout restart deploy/api", Act.DESTRUCTIVE),
        ("kubectl rollout status deploy/api", Act.READ),
        ("kubectl exec api-1 -- cat /etc/hosts", Act.READ),
        ("kubectl exec api-1 -- rm -rf /data", Act.DESTRUCTIVE),
        ("docker ps -a", Act.READ),
        ("docker rm -f web", Act.DESTRUCTIVE),
        ("npm ls", Act.READ),
        ("npm install lodash", Act.ADDITIVE),
        ("npm audit", Act.READ),
        ("npm audit fix --force", Act.DESTRUCTIVE),
        ("npm uninstall lodash", Act.DESTRUCTIVE),
    ],
)
def test_subcommands_and_flags_decide(argv: str, act: Act) -> None:
    assert judge_argv(argv.split()).act is act
