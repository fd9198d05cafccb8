node node-1 1000000 100000 110
app a-1 root.org.a ann -; app b-1 root.org.b ben -; app a-2 root.org.a ann -
why a-2 a-1
