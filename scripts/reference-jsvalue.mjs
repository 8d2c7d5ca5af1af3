// reference-jsvalue.mjs: record how the reference's JavaScript engine
// parses and prints JSON values (JSON.parse, JSON.stringify with and without
// an indent of 2, Number#toString), as JSON lines {json, pretty, compact}
// and {number, text}. The Go package lang/jsvalue must print the same.
const texts = [
  `{"b":1,"a":2}`,
  `{"b":1,"2":"two","a":2,"1":"one","10":"ten","01":"zero-one","4294967295":"big","4294967294":"max"}`,
  `{"a":1,"b":2,"a":3}`,
  `[1,"x",null,true,false,[],{},[[]],{"k":{}}]`,
  `{"s":"quote \\" backslash \\\\ slash \\/ nl \\n tab \\t bell \\u0007 del \\u007f nbsp \\u00a0 ls \\u2028 emoji \\ud83e\\udd9e <>&"}`,
  `[0,-0,1,-1,0.1,1e21,1e20,123456789012345678901,1e-6,1e-7,1.5e-7,5e-324,1.7976931348623157e308,100,1e2,0.000001,2.5e+25,-3.25e-10,9007199254740993,1E400]`,
  `"just a string"`,
  `42`,
  `null`,
  `  {"spaced" : [ 1 , 2 ] }  `,
  `{"nested":{"z":[{"y":1,"x":[1,{"w":null}]}],"a":""}}`,
  `{"":"empty key","__proto__":"proto","constructor":1}`,
];
for (const json of texts) {
  const v = JSON.parse(json);
  console.log(JSON.stringify({ json, pretty: JSON.stringify(v, null, 2), compact: JSON.stringify(v) }));
}
const numbers = ["0", "-0", "1", "0.1", "0.2+0.1", "1/3", "2/3*1e21", "1e21", "999999999999999900000", "1e-7",
  "123e-20", "-1.5e300", "4.35", "0.000001234", "1234.5678", "2**53", "2**53+2", "5e-324", "-1e-7", "100000000000000000000"];
for (const expr of numbers) {
  const n = eval(expr);
  console.log(JSON.stringify({ number: n.toExponential(20), expr, text: String(n) }));
}
