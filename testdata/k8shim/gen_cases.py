import json, random, sys
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
N = int(sys.argv[1])
bools = [None, "true", "false", "TRUE", "1", "0", "yes", "", "t", "False"]
sysusers = [None, "", "^system:serviceaccount:kube-system:", "^system:", "system:node", "[", "^ci-bot$,^system:serviceaccount:", ".*", " , "]
extusers = [None, "", "^alice$", "bob", "^(alice|bob)$", ".*", "(", "^ci-.*$, ^ops$", "a+"]
extgroups = [None, "", "^admins$", "dev", ".*", "^team-.*$", "[a-", "^system:masters$, ^ops$"]
procns = [None, "", "^team-", "^default$", "kube-system", ".*", "^prod$,^dev$", "(", "^team-a$"]
bypns = [None, "", "^kube-system$", "^kube-", "^default$,^kube-system$", "system", "[", ".*", "^team-b$"]
namespaces = ["default", "kube-system", "team-a", "team-b", "prod", "dev", "kube-public", "", "my-system"]
submitters = ["alice", "bob", "carol", "system:serviceaccount:kube-system:job-controller", "system:serviceaccount:team-a:deployer", "ci-bot", "ops", "", "system:node:n1", "abob"]
groupsets = [[], ["dev"], ["admins"], ["team-a", "dev"], ["system:masters"], ["ops", "x"], ["system:authenticated"], [""]]
anns = [None, "", '{"user":"carol","groups":["team-a"]}', '{"user":"dave"}', '{"groups":["g1","g2"]}', '{"user":""}', "null", "{}",
        '{"user":5}', '{"user":"x","groups":"g"}', "not json", '{"user":"eve","groups":[]}', '[1]', '{"user":"bob","groups":["team-a"],"extra":1}',
        '{"user":"x"', ' {"user":"s"} ', '{"User":"cap"}', '{"user":"dup","user":"dup2"}', '{"groups":null}']
nsanns = [None, {}, {"yunikorn.apache.org/namespace.enableYuniKorn": "true"}, {"yunikorn.apache.org/namespace.enableYuniKorn": "false"},
          {"yunikorn.apache.org/namespace.enableYuniKorn": "True"}, {"yunikorn.apache.org/namespace.enableYuniKorn": ""},
          {"yunikorn.apache.org/namespace.enableYunikorn": "true"}, {"yunikorn.apache.org/namespace.enableYuniKorn": "yes"},
          {"yunikorn.apache.org/namespace.generateAppId": "true"}]
labelsets = [None, {}, {"app": "yunikorn"}, {"app": "web"}, {"app": "Yunikorn"}]
keys = {"admissionController.accessControl.bypassAuth": bools, "admissionController.accessControl.trustControllers": bools,
        "admissionController.accessControl.systemUsers": sysusers, "admissionController.accessControl.externalUsers": extusers,
        "admissionController.accessControl.externalGroups": extgroups, "admissionController.filtering.processNamespaces": procns,
        "admissionController.filtering.bypassNamespaces": bypns}
for i in range(N):
    data = {}
    for k, vs in keys.items():
        if random.random() < 0.45:
            v = random.choice(vs)
            if v is not None:
                data[k] = v
    c = {"id": str(i), "data": data, "namespace": random.choice(namespaces), "submitter": random.choice(submitters),
         "submitterGroups": random.choice(groupsets), "annotation": random.choice(anns) if random.random() < 0.7 else None,
         "podNamesScheduler": random.random() < 0.5}
    na = random.choice(nsanns)
    if na is not None:
        c["namespaceAnnotations"] = na
    lb = random.choice(labelsets)
    if lb is not None:
        c["labels"] = lb
    print(json.dumps(c))
