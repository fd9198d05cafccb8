node node-1 1000000 100000 110
app c-1 root.team.jobs carol -; app c-2 root.team.jobs carol -; app c-3 root.team.jobs carol -
app s-1 root.small sam -; app s-2 root.small sam -
why c-3 s-2 c-1
