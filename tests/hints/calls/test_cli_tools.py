"""Developers' and operators' tools judged by their own manuals: check modes and listings read, writes do not."""

from __future__ import annotations

import shlex

import pytest

from hintgate.hints.calls.judgement import Act
from hintgate.hints.calls.programs import judge_argv


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("prettier --check src/**/*.ts", Act.READ),
        ("prettier --write src", Act.DESTRUCTIVE),
        ("black --check --diff src/", Act.READ),
        ("black src/", Act.DESTRUCTIVE),
        ("isort --check-only .", Act.READ),
        ("isort .", Act.DESTRUCTIVE),
        ("ruff check src/", Act.READ),
        ("ruff check --fix src/", Act.DESTRUCTIVE),
        ("ruff check --fix --diff src/", Act.READ),
        ("ruff format --check src/", Act.READ),
        ("ruff format src/", Act.DESTRUCTIVE),
        ("gofmt -l .", Act.READ),
        ("gofmt -w main.go", Act.DESTRUCTIVE),
        ("rustfmt --check src/main.rs", Act.READ),
        ("rustfmt src/main.rs", Act.DESTRUCTIVE),
        ("eslint src", Act.READ),
        ("eslint --fix src", Act.DESTRUCTIVE),
        ("flake8 src", Act.READ),
        ("flake8 --output-file report.txt src", Act.DESTRUCTIVE),
    ],
)
def test_a_formatter_or_linter_reads_unless_told_to_write(line: str, act: Act) -> None:
    assert judge_argv(shlex.split(line)).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("alembic upgrade head --sql", Act.READ),
        ("alembic history", Act.READ),
        ("alembic revision -m add_users", Act.ADDITIVE),
        ("alembic upgrade head", Act.DESTRUCTIVE),
        ("alembic -c alembic.ini downgrade -1", Act.DESTRUCTIVE),
        ("dbt compile", Act.READ),
        ("dbt deps", Act.ADDITIVE),
        ("dbt run --select orders", Act.DESTRUCTIVE),
    ],
)
def test_a_migration_tool_reads_in_offline_and_listing_modes_and_runs_migrations_otherwise(line: str, act: Act) -> None:
    assert judge_argv(shlex.split(line)).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("kustomize build overlays/prod", Act.READ),
        ("kustomize build overlays/prod -o out/", Act.DESTRUCTIVE),
        ("kustomize edit set image api=api:2", Act.DESTRUCTIVE),
        ("pulumi preview --stack prod --diff", Act.READ),
        ("pulumi destroy --preview-only", Act.READ),
        ("pulumi stack output", Act.READ),
        ("pulumi up --stack prod --yes", Act.DESTRUCTIVE),
        ("pulumi config set region eu-west-1", Act.DESTRUCTIVE),
        ("rclone sync --dry-run ./photos gdrive:Photos", Act.READ),
        ("rclone lsjson gdrive:Photos", Act.READ),
        ("rclone mkdir gdrive:New", Act.ADDITIVE),
        ("rclone sync ./photos gdrive:Photos", Act.DESTRUCTIVE),
        ("rclone delete gdrive:Old", Act.DESTRUCTIVE),
        ("skopeo inspect docker://quay.io/prometheus/prometheus:v2.52.0", Act.READ),
        ("skopeo copy docker://a docker://b", Act.DESTRUCTIVE),
        ("trivy image alpine:3.19", Act.READ),
        ("trivy image -o report.json alpine:3.19", Act.DESTRUCTIVE),
        ("etcdctl get /config --prefix", Act.READ),
        ("etcdctl endpoint health", Act.READ),
        ("etcdctl lease grant 60", Act.ADDITIVE),
        ("etcdctl put /config/a 1", Act.DESTRUCTIVE),
        ("etcdctl del /config --prefix", Act.DESTRUCTIVE),
        ("kafka-topics.sh --bootstrap-server k:9092 --describe --topic orders", Act.READ),
        ("kafka-topics --bootstrap-server k:9092 --create --topic orders", Act.ADDITIVE),
        ("kafka-topics --bootstrap-server k:9092 --delete --topic orders", Act.DESTRUCTIVE),
        ("kafka-consumer-groups --group g --reset-offsets --to-earliest --topic t", Act.READ),
        ("kafka-consumer-groups --group g --reset-offsets --to-earliest --topic t --execute", Act.DESTRUCTIVE),
    ],
)
def test_an_infrastructure_cli_reads_in_its_preview_and_listing_commands(line: str, act: Act) -> None:
    assert judge_argv(shlex.split(line)).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("stripe customers list --limit 3", Act.READ),
        ("stripe products create --name=Pro", Act.ADDITIVE),
        ("stripe customers delete cus_123", Act.DESTRUCTIVE),
        ("stripe get /v1/charges", Act.READ),
        ("stripe trigger payment_intent.succeeded", Act.DESTRUCTIVE),
        ("stripe frobnicate", Act.DESTRUCTIVE),
    ],
)
def test_a_service_cli_does_what_its_operation_s_verb_says(line: str, act: Act) -> None:
    assert judge_argv(shlex.split(line)).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("timedatectl status", Act.READ),
        ("hostnamectl", Act.READ),
        ("systemd-analyze blame", Act.READ),
        ("loginctl list-sessions", Act.READ),
        ("timedatectl set-timezone UTC", Act.DESTRUCTIVE),
        ("resolvectl flush-caches", Act.DESTRUCTIVE),
        ("defaults read com.apple.dock", Act.READ),
        ("defaults write com.apple.dock autohide -bool true", Act.DESTRUCTIVE),
        ("diskutil list", Act.READ),
        ("diskutil eraseDisk APFS x disk4", Act.DESTRUCTIVE),
        ("nginx -t", Act.READ),
        ("nginx -c /etc/nginx/nginx.conf", Act.DESTRUCTIVE),
        ("nginx -s reload", Act.DESTRUCTIVE),
        ("apachectl configtest", Act.READ),
        ("apachectl graceful", Act.DESTRUCTIVE),
        ("sshd -T", Act.READ),
        ("visudo -c", Act.READ),
        ("crictl ps -a", Act.READ),
        ("crictl rmi --prune", Act.DESTRUCTIVE),
        ("ssh-keygen -lf id_ed25519.pub", Act.READ),
        ("ssh-keygen -R web-1", Act.DESTRUCTIVE),
        ("ssh-keygen -t ed25519 -f key", Act.DESTRUCTIVE),
        ("gpg --list-keys", Act.READ),
        ("gpg --verify release.sig", Act.READ),
        ("gpg --auto-key-retrieve --verify release.sig", Act.DESTRUCTIVE),
        ("gpg --import key.asc", Act.DESTRUCTIVE),
        ("ufw status verbose", Act.READ),
        ("ufw allow 22/tcp", Act.DESTRUCTIVE),
        ("nft list ruleset", Act.READ),
        ("nft flush ruleset", Act.DESTRUCTIVE),
        ("firewall-cmd --zone=public --list-ports", Act.READ),
        ("firewall-cmd --add-port=80/tcp --permanent", Act.DESTRUCTIVE),
        ("lvs", Act.READ),
        ("findmnt -l", Act.READ),
        ("bat README.md", Act.READ),
    ],
)
def test_system_tools_read_in_their_status_listing_and_check_modes_only(line: str, act: Act) -> None:
    assert judge_argv(shlex.split(line)).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("glab mr list --assignee=@me", Act.READ),
        ("glab issue view 12", Act.READ),
        ("glab mr create --fill", Act.ADDITIVE),
        ("glab mr merge 42 --remove-source-branch --yes", Act.DESTRUCTIVE),
        ("glab repo delete acme/app --yes", Act.DESTRUCTIVE),
    ],
)
def test_the_gitlab_cli_reads_its_listings_and_views_as_the_github_cli_does(line: str, act: Act) -> None:
    assert judge_argv(shlex.split(line)).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("go vet ./...", Act.READ),
        ("go doc fmt.Println", Act.READ),
        ("go list -m all", Act.READ),
        ("go env GOPATH", Act.READ),
        ("go env -w GOFLAGS=-mod=mod", Act.DESTRUCTIVE),
        ("go mod tidy", Act.DESTRUCTIVE),
        ("yarn npm audit --json", Act.READ),
        ("yarn npm info react", Act.READ),
        ("yarn npm publish", Act.ADDITIVE),
    ],
)
def test_go_s_checks_and_listings_and_yarn_s_registry_queries_read(line: str, act: Act) -> None:
    assert judge_argv(shlex.split(line)).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("ffmpeg -hide_banner -i in.mp4", Act.READ),
        ("ffmpeg -i a.mkv -i b.mkv", Act.READ),
        ("ffmpeg -hide_banner -codecs", Act.READ),
        ("ffmpeg -hide_banner -i in.mp4 out.mp4", Act.ADDITIVE),
        ("ffmpeg -i in.mp4 -c copy out.mkv", Act.ADDITIVE),
        ("ffmpeg -hide_banner -y -i in.mp4", Act.DESTRUCTIVE),
    ],
)
def test_ffmpeg_naming_no_output_file_only_prints_what_it_reads(line: str, act: Act) -> None:
    assert judge_argv(shlex.split(line)).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("rclone copy --ignore-existing /data remote:backup", Act.ADDITIVE),
        ("rclone copyto /data/a.txt remote:a.txt --ignore-existing", Act.ADDITIVE),
        ("rclone copy /data remote:backup", Act.DESTRUCTIVE),
        ("rclone sync --ignore-existing /data remote:backup", Act.DESTRUCTIVE),
        ("rclone move --ignore-existing /data remote:backup", Act.DESTRUCTIVE),
    ],
)
def test_an_rclone_copy_that_skips_existing_files_only_adds(line: str, act: Act) -> None:
    assert judge_argv(shlex.split(line)).act is act
