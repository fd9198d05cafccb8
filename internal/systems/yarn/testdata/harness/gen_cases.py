"""Generates YARN cases for the Hadoop 3.4.1 harness (../shared/hadoop-yarn): Capacity Scheduler trees with
capacities that add up or do not (refusals), odd spellings of numbers, allow-zero-capacity-sum, ACLs, and
yarn-site.xml / core-site.xml setting yarn.acl.enable and yarn.admin.acl. Each case also has "order", the
order aclint is given the files in (the ResourceManager's own order does not depend on it).

usage: gen_cases.py N SEED > cases.jsonl"""
import json, random, sys

N, SEED = int(sys.argv[1]), int(sys.argv[2])
rnd = random.Random(SEED)
P = "yarn.scheduler.capacity."
NAMES = ["a", "b", "c", "dev", "prod", "etl", "q1", "default"]
USERS = ["alice", "bob", "carol", "dave"]
GROUPS = ["dev", "ops", "admins", "etl"]
ODD = ["50.0", " 50 ", "5e1", "50f", "1e2", "033", "+50", "0x32p0", "50.", ".5e2", "NaN", "abc", "", "150", "-5", "100.0001", "33.333333", "33.333334", "33.333332"]

def acl():
    r = rnd.random()
    if r < 0.2:
        return "*"
    if r < 0.3:
        return " "
    users = rnd.sample(USERS, rnd.randint(0, 2))
    groups = rnd.sample(GROUPS, rnd.randint(0, 2))
    return ",".join(users) + " " + ",".join(groups)

def split100(n):
    if n == 3 and rnd.random() < 0.5:
        return ["33.3", "33.3", "33.4"] if rnd.random() < 0.5 else ["33.333333", "33.333333", "33.333334"]
    cuts = sorted(rnd.sample(range(1, 100), n - 1))
    parts = [b - a for a, b in zip([0] + cuts, cuts + [100])]
    return [str(p) for p in parts]

def tree(props, path, depth):
    n = rnd.randint(1, 3) if depth < 2 and (depth == 0 or rnd.random() < 0.5) else 0
    if n == 0:
        return
    kids = rnd.sample(NAMES, n)
    props[P + path + ".queues"] = ",".join(kids)
    mode = rnd.random()
    caps = split100(n)
    if mode < 0.15:
        caps = [str(rnd.choice([10, 20, 50, 100])) for _ in kids]          # a sum that may not add up
    elif mode < 0.25:
        caps = ["0"] * n                                                   # all zero
    elif mode < 0.32:
        caps = [None] * n                                                  # none set
    elif mode < 0.42:
        caps[rnd.randrange(n)] = rnd.choice(ODD)                           # an odd spelling
    for k, c in zip(kids, caps):
        if c is not None:
            props[P + path + "." + k + ".capacity"] = c
        if rnd.random() < 0.4:
            props[P + path + "." + k + ".acl_submit_applications"] = acl()
        if rnd.random() < 0.2:
            props[P + path + "." + k + ".acl_administer_queue"] = acl()
        if rnd.random() < 0.05:
            props[P + path + "." + k + ".allow-zero-capacity-sum"] = rnd.choice(["true", "false"])
        tree(props, path + "." + k, depth + 1)

def xml(props):
    out = ["<configuration>"]
    for k, v in props.items():
        final = "<final>true</final>" if rnd.random() < 0.05 else ""
        out.append("<property><name>%s</name><value>%s</value>%s</property>" % (k, v.replace("&", "&amp;").replace("<", "&lt;"), final))
    out.append("</configuration>")
    return "\n".join(out)

for i in range(N):
    props = {}
    if rnd.random() < 0.7:
        props[P + "root.acl_submit_applications"] = acl()
    if rnd.random() < 0.5:
        props[P + "root.acl_administer_queue"] = acl()
    tree(props, "root", 0)
    files = {"capacity-scheduler.xml": xml(props)}
    if rnd.random() < 0.6:
        site = {"yarn.acl.enable": rnd.choice(["true", "false", "TRUE", " true "])}
        if rnd.random() < 0.6:
            site["yarn.admin.acl"] = rnd.choice([" admins", "root", "*", " ", "alice ops"])
        files["yarn-site.xml"] = xml(site)
    if rnd.random() < 0.3:
        files["core-site.xml"] = xml({"yarn.acl.enable": rnd.choice(["true", "false"])})
    order = list(files)
    rnd.shuffle(order)
    qs = []
    paths = ["root"] + [k[len(P):-len(".queues")] + "." + n for k, v in props.items() if k.endswith(".queues") for n in v.split(",")]
    for _ in range(rnd.randint(1, 4)):
        qs.append({"queue": rnd.choice(paths), "user": rnd.choice(USERS), "groups": rnd.sample(GROUPS, rnd.randint(0, 2)), "kind": rnd.choice(["submit", "admin"])})
    print(json.dumps({"id": str(i), "files": files, "order": order, "questions": qs}))
