"""Program argv lists (git, kubectl, docker, npm) judged by subcommand and flags."""

from __future__ import annotations

import pytest

from hintgate.hints.calls import ArgumentJudge
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


@pytest.mark.parametrize(
    ("argv", "act"),
    [
        ("terraform plan", Act.READ),
        ("terraform fmt -recursive", Act.DESTRUCTIVE),
        ("terraform fmt -check", Act.READ),
        ("terraform state list", Act.READ),
        ("terraform state rm aws_s3_bucket.logs", Act.DESTRUCTIVE),
        ("terraform import aws_s3_bucket.logs acme-logs", Act.ADDITIVE),
        ("terraform apply -auto-approve", Act.DESTRUCTIVE),
        ("helm repo add bitnami https://charts.bitnami.com/bitnami", Act.ADDITIVE),
        ("helm repo list", Act.READ),
        ("helm repo remove bitnami", Act.DESTRUCTIVE),
        ("systemctl start redis", Act.ADDITIVE),
        ("systemctl enable --now docker", Act.ADDITIVE),
        ("systemctl restart nginx", Act.DESTRUCTIVE),
        ("pip install -U pip", Act.DESTRUCTIVE),
        ("pip install httpx", Act.ADDITIVE),
        ("npm version patch", Act.DESTRUCTIVE),
        ("npm version", Act.READ),
        ("docker push registry.example.com/api:1.2.3", Act.DESTRUCTIVE),
        ("docker run -d --name cache -p 6379:6379 redis:7", Act.ADDITIVE),
        ("docker run --rm -v /:/host alpine", Act.DESTRUCTIVE),
        ("docker run --rm -v /srv:/srv alpine rm -rf /srv/data", Act.DESTRUCTIVE),
        ("docker run --rm alpine cat /etc/os-release", Act.ADDITIVE),
    ],
)
def test_more_programs_by_their_documented_subcommands(argv: str, act: Act) -> None:
    assert judge_argv(argv.split()).act is act


@pytest.mark.parametrize(
    ("argv", "act"),
    [
        (["aws", "s3", "ls", "s3://logs/"], Act.READ),
        (["aws", "ec2", "describe-instances"], Act.READ),
        (["aws", "sts", "get-caller-identity"], Act.READ),
        (["aws", "logs", "tail", "/aws/lambda/api"], Act.READ),
        (["aws", "ec2", "stop-instances", "--instance-ids", "i-1", "--dry-run"], Act.READ),
        (["aws", "s3", "sync", "./dist", "s3://site", "--delete", "--dryrun"], Act.READ),
        (["aws", "ec2", "run-instances", "--count", "2"], Act.ADDITIVE),
        (["aws", "sqs", "send-message", "--message-body", "hi"], Act.ADDITIVE),
        (["aws", "ec2", "terminate-instances", "--instance-ids", "i-1"], Act.DESTRUCTIVE),
        (["aws", "s3", "rm", "s3://logs/", "--recursive"], Act.DESTRUCTIVE),
        (["aws", "lambda", "invoke", "--function-name", "f", "out.json"], Act.DESTRUCTIVE),
        (["aws", "ssm", "send-command", "--document-name", "AWS-RunShellScript"], Act.DESTRUCTIVE),
        (["aws", "frobnicate", "wibble"], Act.DESTRUCTIVE),
        (["gcloud", "compute", "instances", "list"], Act.READ),
        (["gcloud", "compute", "instances", "delete", "web-1", "--quiet"], Act.DESTRUCTIVE),
        (["gcloud", "compute", "instances", "create", "web-2"], Act.ADDITIVE),
        (["gcloud", "config", "set", "project", "dev"], Act.DESTRUCTIVE),
        (["gcloud", "run", "deploy", "api", "--image", "gcr.io/a/api:1"], Act.DESTRUCTIVE),
        (["gcloud", "auth", "list"], Act.READ),
        (["az", "group", "list"], Act.READ),
        (["az", "vm", "run-command", "invoke", "--scripts", "rm -rf /"], Act.DESTRUCTIVE),
    ],
)
def test_cloud_clis_by_the_verb_of_their_command(argv: list[str], act: Act) -> None:
    judged = judge_argv(argv)
    assert judged.act is act
    assert judged.open_world is (argv[1] != "configure")


@pytest.mark.parametrize(
    ("argv", "act"),
    [
        (["psql", "-At", "-c", "SELECT count(*) FROM users"], Act.READ),
        (["psql", "-U", "postgres", "-c", "DROP DATABASE staging"], Act.DESTRUCTIVE),
        (["psql", "-f", "migrate.sql"], Act.DESTRUCTIVE),
        (["psql", "app"], Act.DESTRUCTIVE),
        (["psql", "-l"], Act.READ),
        (["mysql", "-u", "root", "-e", "SHOW DATABASES"], Act.READ),
        (["mysql", "--execute=DELETE FROM t"], Act.DESTRUCTIVE),
        (["sqlite3", "app.db", "SELECT * FROM notes"], Act.READ),
        (["sqlite3", "app.db", ".tables"], Act.READ),
        (["sqlite3", "app.db", "INSERT INTO notes VALUES (1)"], Act.ADDITIVE),
        (["sqlcmd", "-S", "db", "-Q", "TRUNCATE TABLE t"], Act.DESTRUCTIVE),
    ],
)
def test_a_database_client_does_what_its_statements_do(argv: list[str], act: Act) -> None:
    assert judge_argv(argv).act is act


def test_rsync_with_n_is_a_dry_run() -> None:
    assert judge_argv(["rsync", "-avn", "--delete", "src/", "backup/"]).act is Act.READ
    assert judge_argv(["rsync", "-av", "--delete", "src/", "backup/"]).act is Act.DESTRUCTIVE
    assert judge_argv(["rsync", "-av", "src/", "web01:/srv/"]).open_world is True


@pytest.mark.parametrize(
    "argv",
    [
        ["pip", "install", "-r", "requirements.txt"],
        ["pip", "install", "--constraint", "pins.txt", "requests"],
        ["az", "storage", "blob", "upload", "--name", "a.txt", "--file", "a.txt", "--overwrite"],
    ],
)
def test_an_install_of_pinned_versions_or_an_upload_told_to_overwrite_is_destructive(argv: list[str]) -> None:
    assert judge_argv(argv).act is Act.DESTRUCTIVE


def test_an_upload_not_told_to_overwrite_stays_additive() -> None:
    assert judge_argv(["az", "storage", "blob", "upload", "--name", "a.txt", "--file", "a.txt"]).act is Act.ADDITIVE


@pytest.mark.parametrize(
    ("argv", "act"),
    [
        (["dd", "if=/dev/sda", "bs=512", "count=1"], Act.READ),
        (["dd", "if=/dev/zero", "of=/dev/null", "count=1"], Act.READ),
        (["dd", "if=image.iso", "of=/dev/sdb", "bs=4M"], Act.DESTRUCTIVE),
        (["iptables", "-L", "-n", "-v"], Act.READ),
        (["iptables", "-nvL", "INPUT"], Act.READ),
        (["iptables", "-S"], Act.READ),
        (["iptables", "-L", "-Z"], Act.DESTRUCTIVE),
        (["iptables", "-A", "INPUT", "-p", "tcp", "--dport", "22", "-j", "ACCEPT"], Act.DESTRUCTIVE),
        (["iptables", "-F"], Act.DESTRUCTIVE),
        (["cargo", "tree", "--depth", "1"], Act.READ),
    ],
)
def test_dd_without_an_output_file_and_firewall_listings_read(argv: list[str], act: Act) -> None:
    assert judge_argv(argv).act is act


@pytest.mark.parametrize(
    ("argv", "act"),
    [
        (["redis-cli", "-h", "cache", "INFO", "memory"], Act.READ),
        (["redis-cli", "-h", "cache", "--scan", "--pattern", "session:*"], Act.READ),
        (["redis-cli", "-h", "cache", "PUBLISH", "events", "reload"], Act.ADDITIVE),
        (["redis-cli", "-h", "cache", "FLUSHALL"], Act.DESTRUCTIVE),
        (["redis-cli", "--scan", "DEL", "k"], Act.DESTRUCTIVE),
        (["redis-cli", "--pipe"], Act.DESTRUCTIVE),
        (["redis-cli", "--eval", "script.lua"], Act.DESTRUCTIVE),
        (["redis-cli"], Act.DESTRUCTIVE),
    ],
)
def test_redis_cli_runs_the_redis_command_its_arguments_end_with_or_a_reading_mode(argv: list[str], act: Act) -> None:
    assert judge_argv(argv).act is act


@pytest.mark.parametrize(
    ("argv", "act"),
    [
        (["ansible", "web", "-m", "ping"], Act.READ),
        (["ansible", "all", "-m", "ansible.builtin.setup", "-a", "filter=ansible_distribution*"], Act.READ),
        (["ansible", "all", "-a", "uptime"], Act.READ),
        (["ansible", "all", "-a", "rm -rf /tmp/cache"], Act.DESTRUCTIVE),
        (["ansible", "all", "-m", "shell", "-a", "cat /etc/hosts > /tmp/hosts"], Act.DESTRUCTIVE),
        (["ansible", "all", "-b", "-m", "apt", "-a", "name=htop state=present"], Act.DESTRUCTIVE),
        (["ansible-playbook", "site.yml"], Act.DESTRUCTIVE),
    ],
)
def test_an_ansible_ad_hoc_task_is_judged_by_its_module_and_the_command_it_runs(argv: list[str], act: Act) -> None:
    from hintgate.hints.calls.shell import judge_shell

    assert judge_argv(argv, judge_shell).act is act


@pytest.mark.parametrize(
    ("argv", "act"),
    [
        ("launchctl print system/com.example.backup", Act.READ),
        ("launchctl list", Act.READ),
        ("launchctl bootstrap gui/501 ~/Library/LaunchAgents/com.example.sync.plist", Act.ADDITIVE),
        ("launchctl kickstart gui/501/com.example.sync", Act.ADDITIVE),
        ("launchctl kickstart -k system/com.example.web", Act.DESTRUCTIVE),
        ("launchctl bootout system/com.example.web", Act.DESTRUCTIVE),
        ("ffmpeg -i talk.mkv -c:a aac talk.m4a", Act.ADDITIVE),
        ("ffmpeg -n -i talk.mkv talk.mp3", Act.ADDITIVE),
        ("ffmpeg -y -i talk.mkv talk.mp3", Act.DESTRUCTIVE),
        ("ffmpeg -v error -i talk.mkv -f null -", Act.READ),
        ("magick identify -verbose photo.jpg", Act.READ),
        ("magick photo.png -resize 800x photo.webp", Act.DESTRUCTIVE),
        ("magick mogrify -strip *.jpg", Act.DESTRUCTIVE),
    ],
)
def test_launchd_ffmpeg_and_imagemagick_by_their_documented_commands_and_options(argv: str, act: Act) -> None:
    assert judge_argv(argv.split()).act is act


def test_a_tool_named_for_launchctl_ffmpeg_or_imagemagick_judges_its_argument_list() -> None:
    for name, args, act in (
        ("launchctl", ["print", "system"], Act.READ),
        ("ffmpeg", ["-y", "-i", "a.mov", "b.mp4"], Act.DESTRUCTIVE),
        ("magick", ["identify", "a.png"], Act.READ),
    ):
        judge = ArgumentJudge.of(
            {
                "name": name,
                "description": f"Runs {name}.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"args": {"type": "array", "items": {"type": "string"}}},
                },
            }
        )
        assert judge is not None
        judged = judge.judge({"args": args})
        assert judged is not None
        assert judged.act is act


def _rsync_tool(extra: dict[str, object] | None = None) -> ArgumentJudge:
    properties: dict[str, object] = {
        "src": {"type": "string"},
        "dest": {"type": "string"},
        "flags": {"type": "array", "items": {"type": "string"}},
        **(extra or {}),
    }
    judge = ArgumentJudge.of(
        {"name": "rsync", "description": "Copies files.", "inputSchema": {"type": "object", "properties": properties}}
    )
    assert judge is not None
    return judge


@pytest.mark.parametrize(
    ("arguments", "act"),
    [
        ({"src": "build/", "dest": "backup:/srv/app/", "flags": ["-a", "--delete"]}, Act.DESTRUCTIVE),
        ({"src": "build/", "dest": "backup:/srv/app/", "flags": ["-an", "--delete"]}, Act.READ),
        ({"src": "photos/", "dest": "/mnt/usb/photos/", "flags": ["-a", "--ignore-existing"]}, Act.ADDITIVE),
        (
            {"src": "photos/", "dest": "/mnt/usb/", "flags": ["-a", "--ignore-existing", "--delete-after"]},
            Act.DESTRUCTIVE,
        ),
        ({"src": "photos/", "dest": "--dry-run", "flags": ["-a", "--delete"]}, Act.DESTRUCTIVE),
    ],
)
def test_a_wrapper_whose_parameters_split_the_command_line_is_judged_as_the_whole_line(
    arguments: dict[str, object], act: Act
) -> None:
    judged = _rsync_tool().judge(arguments)
    assert judged is not None
    assert judged.act is act


@pytest.mark.parametrize(
    ("argv", "act"),
    [
        ("apt-get -s purge nginx", Act.READ),
        ("apt --simulate autoremove", Act.READ),
        ("dnf --assumeno remove httpd", Act.READ),
        ("brew install -s wget", Act.ADDITIVE),
        ("brew uninstall -s wget", Act.DESTRUCTIVE),
        ("yum -s remove httpd", Act.DESTRUCTIVE),
        ("docker start api", Act.ADDITIVE),
        ("docker container start api", Act.ADDITIVE),
        ("docker container restart api", Act.DESTRUCTIVE),
    ],
)
def test_a_package_managers_own_simulate_option_reads_and_starting_a_container_adds(argv: str, act: Act) -> None:
    assert judge_argv(argv.split()).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("sysctl vm.swappiness net.core.somaxconn", Act.READ),
        ("sysctl -a", Act.READ),
        ("sysctl -w vm.swappiness=10", Act.DESTRUCTIVE),
        ("sysctl vm.swappiness=10", Act.DESTRUCTIVE),
        ("sysctl -p", Act.DESTRUCTIVE),
        ("date -Is", Act.READ),
        ("date -s 10:00", Act.DESTRUCTIVE),
        ("pg_lsclusters", Act.READ),
        ("psql -Atc 'select datname from pg_database'", Act.READ),
        ("psql -Atc 'drop table users'", Act.DESTRUCTIVE),
        ("mysql -NBe 'SHOW TABLES'", Act.READ),
        ("psql -d app -c '\\dt+ public.*'", Act.READ),
        ("psql -c '\\! rm -rf /'", Act.DESTRUCTIVE),
        ("psql -c '\\dt \\o /tmp/x'", Act.DESTRUCTIVE),
    ],
)
def test_system_and_database_clients_read_unless_a_flag_or_operand_sets_something(line: str, act: Act) -> None:
    import shlex

    assert judge_argv(shlex.split(line)).act is act


@pytest.mark.parametrize(
    ("argv", "act"),
    [
        (["gh", "api", "graphql", "-f", "query=query { viewer { login } }"], Act.READ),
        (
            [
                "gh",
                "api",
                "graphql",
                "-f",
                'query=mutation { addStar(input: {starrableId: "x"}) { clientMutationId } }',
            ],
            Act.ADDITIVE,
        ),
        (["gh", "api", "repos/o/r/issues", "-f", "title=x"], Act.ADDITIVE),
        (["kubectl", "create", "job", "backup-now", "--from=cronjob/db-backup"], Act.DESTRUCTIVE),
        (["kubectl", "create", "deployment", "web", "--image=nginx"], Act.ADDITIVE),
    ],
)
def test_a_graphql_query_through_gh_api_reads_and_a_job_created_now_runs(argv: list[str], act: Act) -> None:
    assert judge_argv(argv).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("gzip -k access.log.1", Act.ADDITIVE),
        ("xz --keep dump.sql", Act.ADDITIVE),
        ("gzip -kf access.log.1", Act.DESTRUCTIVE),
        ("gzip access.log.1", Act.DESTRUCTIVE),
    ],
)
def test_a_compressor_told_to_keep_its_input_only_adds_unless_forced(line: str, act: Act) -> None:
    assert judge_argv(line.split()).act is act
