node node-1 1000000 100000 110
app e-1 root.shared erin x; app f-1 root.shared frank y; app e-2 root.shared erin x
why e-2 f-1
