"""Generates the fifth round's YARN cases for the Hadoop 3.4.1 harness (../shared/hadoop-yarn): a queue
named twice in a .queues list (a sum that goes past 100, or one that still adds up), ${...} chains of
0 to 25 steps through properties of capacity-scheduler.xml and yarn-site.xml in ACLs, capacities and
.queues values (and loops), deep chains of queues (up to 300 levels) under a root whose children
add up or do not, queue states (RUNNING, STOPPED, DRAINING, spelled in any case, with blanks)
on root, parents and leaves, and weights ("2w", out of range, unreadable) mixed with percentages,
with maximum-capacity values Float.parseFloat reads or refuses. Same format as gen_cases.py.

usage: gen_round5.py N SEED > cases.jsonl"""
import json, random, sys

N, SEED = int(sys.argv[1]), int(sys.argv[2])
rnd = random.Random(SEED)
P = "yarn.scheduler.capacity."
USERS = ["alice", "bob", "carol"]
GROUPS = ["dev", "ops"]

def xml(props):
    out = ["<configuration>"]
    for k, v in props:
        out.append("<property><name>%s</name><value>%s</value></property>" % (k, v.replace("&", "&amp;").replace("<", "&lt;")))
    out.append("</configuration>")
    return "\n".join(out)

def chain(props, site, value, tag):
    """value behind a ${...} chain of 0 to 25 steps, or a loop"""
    n = rnd.choice([0, 1, 5, 18, 19, 20, 21, 25]) if rnd.random() < 0.9 else -1
    if n == 0:
        return value
    names = ["%s.v%d" % (tag, i) for i in range(max(n, 2))]
    if n == -1:  # a loop of two
        props.append((names[0], "${%s}" % names[1]))
        (site if rnd.random() < 0.5 else props).append((names[1], "${%s} x" % names[0]))
        return "${%s}" % names[0]
    for i in range(n - 1):
        (site if rnd.random() < 0.3 else props).append((names[i], "${%s}" % names[i + 1]))
    props.append((names[n - 1], value))
    return "${%s}" % names[0]

for i in range(N):
    props, site = [], [("yarn.acl.enable", "true")]
    kind = rnd.choices(["dup", "subst", "deep", "state", "weights"], [25, 30, 5, 25, 15])[0]
    qs = []
    if kind == "dup":
        kids = rnd.sample(["a", "b", "c"], rnd.randint(1, 3))
        listed = kids + [rnd.choice(kids)]
        rnd.shuffle(listed)
        sep = rnd.choice([",", ", ", " ,"])
        props.append((P + "root.queues", sep.join(listed)))
        counts = {k: listed.count(k) for k in kids}
        total = sum(counts.values())
        if rnd.random() < 0.5:  # per listed name, 100 in all: the sum works out
            for k in kids:
                props.append((P + "root.%s.capacity" % k, str(round(100.0 * counts[k] / total / counts[k], 4))))
        else:                   # 100 per distinct name: the repeat pushes it over
            cap = 100.0 / len(kids)
            for k in kids:
                props.append((P + "root.%s.capacity" % k, str(round(cap, 4))))
        qs = ["root." + k for k in kids] + kids
    elif kind == "subst":
        props.append((P + "root.queues", chain(props, site, "a,b", "q") if rnd.random() < 0.2 else "a,b"))
        props.append((P + "root.a.capacity", chain(props, site, "50", "c") if rnd.random() < 0.3 else "50"))
        props.append((P + "root.b.capacity", "50"))
        props.append((P + "root.acl_submit_applications", " "))
        props.append((P + "root.a.acl_submit_applications", chain(props, site, rnd.choice(["alice", "bob dev", " ops"]), "s")))
        qs = ["root.a", "root.b"]
    elif kind == "state":
        STATES = ["RUNNING", "STOPPED", "stopped", "Running", " STOPPED", "STOPPED ", "DRAINING", "draining", "paused", "", "\u017ftopped"]
        props.append((P + "root.queues", "a,b"))
        props.append((P + "root.a.capacity", "50"))
        props.append((P + "root.b.capacity", "50"))
        props.append((P + "root.a.queues", "x,y"))
        props.append((P + "root.a.x.capacity", "50"))
        props.append((P + "root.a.y.capacity", "50"))
        props.append((P + "root.acl_submit_applications", rnd.choice(["*", "alice", " dev"])))
        props.append((P + "root.acl_administer_queue", " "))
        for q in ["root", "root.a", "root.b", "root.a.x", "root.a.y"]:
            if rnd.random() < (0.15 if q == "root" else 0.35):
                props.append((P + q + ".state", rnd.choice(STATES)))
        qs = ["root.b", "root.a.x", "root.a.y", "root.a"]
    elif kind == "weights":
        CAPS = ["2w", "1w", "0w", "1.5w", "-1w", "10001w", "abcw", "50", "0", "100", "40", "60"]
        MAX = ["100", "50", "-1", "abc", "[memory=1024]", " 80 ", "150", None, None]
        props.append((P + "root.queues", "a,b"))
        props.append((P + "root.a.queues", "x,y"))
        for q in ["root.a", "root.b", "root.a.x", "root.a.y"]:
            props.append((P + q + ".capacity", rnd.choice(CAPS)))
            m = rnd.choice(MAX)
            if m is not None:
                props.append((P + q + ".maximum-capacity", m))
        props.append((P + "root.acl_submit_applications", " "))
        props.append((P + "root.acl_administer_queue", " "))
        props.append((P + "root.a.x.acl_submit_applications", "alice"))
        qs = ["root.a.x", "root.b"]
    else:
        depth = rnd.choice([3, 50, 200, 255, 256, 257, 300])
        props.append((P + "root.queues", "a,b"))
        a = rnd.choice([50, 60])
        props.append((P + "root.a.capacity", str(a)))
        props.append((P + "root.b.capacity", "50"))
        path = "root.a"
        for d in range(depth):
            props.append((P + path + ".queues", "c"))
            path += ".c"
            props.append((P + path + ".capacity", "100"))
        props.append((P + "root.b.acl_submit_applications", "alice"))
        props.append((P + "root.acl_submit_applications", " "))
        qs = ["root.b", path]
    files = {"capacity-scheduler.xml": xml(props), "yarn-site.xml": xml(site)}
    order = list(files)
    rnd.shuffle(order)
    questions = [{"queue": q, "user": rnd.choice(USERS), "groups": rnd.sample(GROUPS, rnd.randint(0, 2)), "kind": rnd.choice(["submit", "admin"])} for q in qs]
    print(json.dumps({"id": "r5-%d" % i, "files": files, "order": order, "questions": questions}))
