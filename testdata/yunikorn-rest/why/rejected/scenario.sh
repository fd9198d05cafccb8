node node-1 1000000 100000 110
app k-1 root.known kim -; app n-1 root.nosuch nick -
why n-1 k-1
