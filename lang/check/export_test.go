package check

var ExampleFiles = exampleFiles
