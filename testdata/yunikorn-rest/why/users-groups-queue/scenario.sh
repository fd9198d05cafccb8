node node-1 1000000 100000 110; node node-2 1000000 100000 110
app alice-1 root.analytics alice analysts; app alice-2 root.analytics alice analysts; app alice-3 root.analytics alice analysts
app bob-1 root.analytics bob data-eng,analysts; app bob-2 root.analytics bob data-eng,analysts
app carol-1 root.batch carol -; app dave-1 root.batch dave -; app mallory-1 root.open mallory -
why alice-1 alice-3 bob-2 dave-1 mallory-1 nosuch-app
remove alice-1
why alice-3 alice-1
