"""Generates the sixth round's YARN cases for the Hadoop 3.4.1 harness (issue 54, items 1 and 2).

"stopped": queue trees with STOPPED parents (a state set on the parent, its children without one
or STOPPED too, now and then a RUNNING child, which Hadoop refuses), ACLs on root, parents and
leaves, yarn.acl.enable true or false, and questions (submit and admin) on parents and leaves.

"depth": ${...} chains of 15 to 25 steps, their steps spread over core-site.xml, yarn-site.xml and
capacity-scheduler.xml (a step in capacity-scheduler.xml is not seen by the ResourceManager's own
configuration), some steps final in core-site.xml or yarn-site.xml and set again later (the later
value is ignored), into the values the ResourceManager expands at start: yarn.acl.enable,
yarn.admin.acl, root's and a parent's .queues, capacities, maximum-capacity, states, ACLs,
legacy-queue-mode.enabled, allow-zero-capacity-sum, the flags parseQueue reads (reservable,
auto-create-child-queue.enabled, auto-queue-creation-v2.enabled), and the placement values
(queue-placement-rules, queue-mappings-override.enable, mapping-rule-format, queue-mappings, the
application-name mappings, mapping-rule-json); one or two chains a case.

Each case has "questions" (for YarnOracle341) and "apps" (for YarnPlace341).
usage: gen_round6.py N SEED > cases.jsonl"""
import json, random, sys

N, SEED = int(sys.argv[1]), int(sys.argv[2])
rnd = random.Random(SEED)
P = "yarn.scheduler.capacity."
USERS = ["alice", "bob", "carol"]
GROUPS = ["dev", "ops"]


def xml(props):
    out = ["<configuration>"]
    for k, v, final in props:
        f = "<final>true</final>" if final else ""
        out.append("<property><name>%s</name><value>%s</value>%s</property>" % (k, v.replace("&", "&amp;").replace("<", "&lt;"), f))
    out.append("</configuration>")
    return "\n".join(out)


def put(files, name, key, value, final=False):
    files[name].append((key, value, final))


def stopped_case(files):
    cs = "capacity-scheduler.xml"
    put(files, "yarn-site.xml", "yarn.acl.enable", rnd.choice(["true", "true", "false"]))
    put(files, cs, P + "root.queues", "ml,b")
    put(files, cs, P + "root.ml.capacity", "50")
    put(files, cs, P + "root.b.capacity", "50")
    put(files, cs, P + "root.ml.queues", "x,y")
    put(files, cs, P + "root.ml.x.capacity", "50")
    put(files, cs, P + "root.ml.y.capacity", "50")
    put(files, cs, P + "root.ml.state", rnd.choice(["STOPPED", "stopped", "STOPPED", "RUNNING"]))
    for q in ["root.ml.x", "root.ml.y", "root.b"]:
        if rnd.random() < 0.3:
            put(files, cs, P + q + ".state", rnd.choice(["STOPPED", "STOPPED", "RUNNING"]))
    if rnd.random() < 0.2:
        put(files, cs, P + "root.state", "STOPPED")
    for q in ["root", "root.ml", "root.ml.x", "root.b"]:
        for acl in ["acl_submit_applications", "acl_administer_queue"]:
            if rnd.random() < 0.6:
                put(files, cs, P + q + "." + acl, rnd.choice([" ", "*", "bob", "alice dev", " ops", "carol,bob"]))
    return ["root.ml", "ml", "root.ml.x", "root.ml.y", "root.b"]


TARGETS = ["enable", "admin", "rootqueues", "queues", "capacity", "maxcap", "state", "acl", "legacy", "zero",
           "reservable", "autocreate", "v2", "rules", "override", "format", "mappings", "appname", "json"]


def chain(files, tag, value, rm):
    """the first step of a chain of 15 to 25 steps to value; rm: the value is read from the
    ResourceManager's configuration, which never sees capacity-scheduler.xml's steps"""
    n = rnd.choice([15, 19, 19, 20, 20, 21, 21, 25])
    names = ["%s.v%d" % (tag, i) for i in range(n)]
    where = ["core-site.xml", "yarn-site.xml"] + ([] if rm and rnd.random() < 0.8 else ["capacity-scheduler.xml"])
    for i in range(n):
        val = "${%s}" % names[i + 1] if i + 1 < n else value
        f = rnd.choice(where)
        final = f != "capacity-scheduler.xml" and rnd.random() < 0.15
        put(files, f, names[i], val, final)
        if final and rnd.random() < 0.5:
            # set again in a later file: ignored, the final value stays (a literal breaks the chain)
            later = ["yarn-site.xml", "capacity-scheduler.xml"][["core-site.xml", "yarn-site.xml"].index(f):]
            put(files, rnd.choice(later), names[i], rnd.choice([value, "${%s}" % names[min(i + 2, n - 1)]]))
    return "${%s}" % names[0]


def depth_case(files):
    cs = "capacity-scheduler.xml"
    targets = rnd.sample(TARGETS, rnd.choice([1, 1, 2]))
    vals = {
        "enable": ("yarn-site.xml", "yarn.acl.enable", "true", True),
        "admin": ("yarn-site.xml", "yarn.admin.acl", "*", True),
        "rootqueues": (cs, P + "root.queues", "a,b", False),
        "queues": (cs, P + "root.a.queues", "x", False),
        "capacity": (cs, P + "root.b.capacity", "50", False),
        "maxcap": (cs, P + "root.b.maximum-capacity", "80", False),
        "state": (cs, P + "root.b.state", "RUNNING", False),
        "acl": (cs, P + "root.b.acl_submit_applications", "alice", False),
        "legacy": (cs, P + "legacy-queue-mode.enabled", "true", False),
        "zero": (cs, P + "root.allow-zero-capacity-sum", "false", False),
        "reservable": (cs, P + "root.b.reservable", "false", False),
        "autocreate": (cs, P + "root.a.x.auto-create-child-queue.enabled", "false", False),
        "v2": (cs, P + "root.a.auto-queue-creation-v2.enabled", "false", False),
        "rules": (cs, "yarn.scheduler.queue-placement-rules", "user-group", False),
        "override": (cs, P + "queue-mappings-override.enable", "true", False),
        "format": (cs, P + "mapping-rule-format", "legacy", False),
        "mappings": (cs, P + "queue-mappings", "u:alice:root.b,u:%user:x", False),
        "appname": (cs, P + "queue-mappings.app-name", "app:root.b", False),
        "json": (cs, P + "mapping-rule-json", '{"rules":[{"type":"user","matches":"*","policy":"custom","customPlacement":"root.b","fallbackResult":"skip"}]}', False),
    }
    if "json" in targets:
        put(files, cs, P + "mapping-rule-format", "json")
        targets = [t for t in targets if t not in ("format", "mappings", "appname")] or ["json"]
    set_here = {}
    for t in targets:
        f, key, value, rm = vals[t]
        if t == "json":
            f = cs
        set_here[key] = (f, chain(files, t, value, rm))
    base = [("yarn-site.xml", "yarn.acl.enable", "true"), (cs, P + "root.queues", "a,b"), (cs, P + "root.a.capacity", "50"),
            (cs, P + "root.b.capacity", "50"), (cs, P + "root.a.queues", "x"), (cs, P + "root.a.x.capacity", "100"),
            (cs, P + "root.acl_submit_applications", " "), (cs, P + "root.acl_administer_queue", " ")]
    for f, key, value in base:
        if key not in set_here:
            put(files, f, key, value)
    for key, (f, value) in set_here.items():
        put(files, f, key, value)
    return ["root.b", "root.a.x", "root.a"]


out = []
for i in range(N):
    files = {"core-site.xml": [], "yarn-site.xml": [], "capacity-scheduler.xml": []}
    kind = "stopped" if i % 3 == 0 else "depth"
    queues = stopped_case(files) if kind == "stopped" else depth_case(files)
    questions, apps = [], []
    for _ in range(6):
        user = rnd.choice(USERS)
        groups = rnd.sample(GROUPS, rnd.randint(0, 2))
        questions.append({"queue": rnd.choice(queues), "user": user, "groups": groups, "kind": rnd.choice(["submit", "submit", "admin"])})
        apps.append({"user": user, "groups": groups, "queue": rnd.choice([None, None, rnd.choice(queues)])})
    texts = {k: xml(v) for k, v in files.items() if v or k == "capacity-scheduler.xml"}
    order = sorted(texts)
    rnd.shuffle(order)
    print(json.dumps({"id": "r6-%d" % i, "kind": kind, "files": texts, "order": order, "questions": questions, "apps": apps}))
