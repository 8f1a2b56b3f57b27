// Generated from src/server/config/env-schema.ts by `npm run generate`. Do not edit.
// @ts-nocheck: Ajv's standalone code, untyped; its export is typed at the end.

import { createRequire } from 'node:module'
import type { ValidateFunction } from 'ajv'

// What it calls of Ajv's run time (ajv/dist/runtime/) is the server's own Ajv's, required as Ajv wrote it.
const require = createRequire(import.meta.url)

const schema0 = {"type":"object","properties":{"NODE_ENV":{"enum":["development","production","test"],"default":"development"},"HOST":{"type":"string","minLength":1,"default":"127.0.0.1"},"PORT":{"type":"integer","minimum":0,"maximum":65535,"default":3000},"LOG_LEVEL":{"enum":["fatal","error","warn","info","debug","trace","silent"],"default":"info"},"DATABASE_URL":{"type":"string","pattern":"^(sqlite:.+|postgres(ql)?://.+)$","default":"sqlite:./data/plants.db"},"DATABASE_POOL_SIZE":{"type":"integer","minimum":1,"maximum":1000,"default":10},"DATABASE_CONNECT_TIMEOUT_MS":{"type":"integer","minimum":1,"maximum":600000,"default":2000},"DATABASE_STATEMENT_TIMEOUT_MS":{"type":"integer","minimum":1,"maximum":600000,"default":5000},"AUTH_TOKENS":{"type":"string","pattern":"^[^:,\\s]+:[^:,\\s]+(,[^:,\\s]+:[^:,\\s]+)*$"},"JWT_JWKS_URL":{"type":"string"},"JWT_SECRET":{"type":"string","minLength":32},"JWT_ISSUER":{"type":"string"},"JWT_AUDIENCE":{"type":"string"},"SANDBOX":{"type":"boolean","default":false},"SANDBOX_SEED":{"type":"string"},"SANDBOX_MAX_PRINCIPALS":{"type":"integer","minimum":1,"default":10000},"CORS_ORIGIN":{"type":"string"},"RATE_LIMIT_MAX":{"type":"integer","minimum":1,"default":1000},"RATE_LIMIT_WINDOW":{"type":"integer","minimum":1,"maximum":86400,"default":60},"AUTH_FAILURE_LIMIT":{"type":"integer","minimum":1,"default":20},"HEADERS_TIMEOUT_MS":{"type":"integer","minimum":1,"default":10000},"REQUEST_TIMEOUT_MS":{"type":"integer","minimum":1,"default":30000},"KEEP_ALIVE_TIMEOUT_MS":{"type":"integer","minimum":1,"default":72000},"CONNECTION_TIMEOUT_MS":{"type":"integer","minimum":0,"default":120000},"OVERLOAD_MAX_EVENT_LOOP_DELAY_MS":{"type":"integer","minimum":0,"default":1000},"OVERLOAD_MAX_HEAP_USED_BYTES":{"type":"integer","minimum":0,"default":0},"OVERLOAD_MAX_RSS_BYTES":{"type":"integer","minimum":0,"default":0},"RETRY_AFTER_SECONDS":{"type":"integer","minimum":1,"default":5},"SQLITE_MAX_PAGE_COUNT":{"type":"integer","minimum":1},"DATABASE_READ_ONLY":{"type":"boolean","default":false},"SIMULATE_FAULTS":{"type":"boolean","default":false},"WEBHOOK_ENDPOINTS":{"type":"string"},"WEBHOOK_SECRET":{"type":"string"},"WEBHOOK_TIMEOUT_MS":{"type":"integer","minimum":1,"maximum":600000,"default":10000},"WEBHOOK_RETRY_BASE_MS":{"type":"integer","minimum":1,"default":5000},"WEBHOOK_RETRY_MAX_MS":{"type":"integer","minimum":1,"default":3600000},"WEBHOOK_MAX_ATTEMPTS":{"type":"integer","minimum":1,"maximum":100,"default":15},"WEBHOOK_MAX_PENDING":{"type":"integer","minimum":1,"default":10000},"WEBHOOK_POLL_MS":{"type":"integer","minimum":10,"maximum":600000,"default":1000},"WEBHOOK_DELIVERY":{"type":"boolean","default":true}},"additionalProperties":false};
const func0 = Object.prototype.hasOwnProperty;
const func1 = require("ajv/dist/runtime/ucs2length").default;
const pattern0 = new RegExp("^(sqlite:.+|postgres(ql)?://.+)$", "u");
const pattern1 = new RegExp("^[^:,\\s]+:[^:,\\s]+(,[^:,\\s]+:[^:,\\s]+)*$", "u");

function validate0(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate0.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.NODE_ENV === undefined){
data.NODE_ENV = "development";
}
if(data.HOST === undefined){
data.HOST = "127.0.0.1";
}
if(data.PORT === undefined){
data.PORT = 3000;
}
if(data.LOG_LEVEL === undefined){
data.LOG_LEVEL = "info";
}
if(data.DATABASE_URL === undefined){
data.DATABASE_URL = "sqlite:./data/plants.db";
}
if(data.DATABASE_POOL_SIZE === undefined){
data.DATABASE_POOL_SIZE = 10;
}
if(data.DATABASE_CONNECT_TIMEOUT_MS === undefined){
data.DATABASE_CONNECT_TIMEOUT_MS = 2000;
}
if(data.DATABASE_STATEMENT_TIMEOUT_MS === undefined){
data.DATABASE_STATEMENT_TIMEOUT_MS = 5000;
}
if(data.SANDBOX === undefined){
data.SANDBOX = false;
}
if(data.SANDBOX_MAX_PRINCIPALS === undefined){
data.SANDBOX_MAX_PRINCIPALS = 10000;
}
if(data.RATE_LIMIT_MAX === undefined){
data.RATE_LIMIT_MAX = 1000;
}
if(data.RATE_LIMIT_WINDOW === undefined){
data.RATE_LIMIT_WINDOW = 60;
}
if(data.AUTH_FAILURE_LIMIT === undefined){
data.AUTH_FAILURE_LIMIT = 20;
}
if(data.HEADERS_TIMEOUT_MS === undefined){
data.HEADERS_TIMEOUT_MS = 10000;
}
if(data.REQUEST_TIMEOUT_MS === undefined){
data.REQUEST_TIMEOUT_MS = 30000;
}
if(data.KEEP_ALIVE_TIMEOUT_MS === undefined){
data.KEEP_ALIVE_TIMEOUT_MS = 72000;
}
if(data.CONNECTION_TIMEOUT_MS === undefined){
data.CONNECTION_TIMEOUT_MS = 120000;
}
if(data.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS === undefined){
data.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS = 1000;
}
if(data.OVERLOAD_MAX_HEAP_USED_BYTES === undefined){
data.OVERLOAD_MAX_HEAP_USED_BYTES = 0;
}
if(data.OVERLOAD_MAX_RSS_BYTES === undefined){
data.OVERLOAD_MAX_RSS_BYTES = 0;
}
if(data.RETRY_AFTER_SECONDS === undefined){
data.RETRY_AFTER_SECONDS = 5;
}
if(data.DATABASE_READ_ONLY === undefined){
data.DATABASE_READ_ONLY = false;
}
if(data.SIMULATE_FAULTS === undefined){
data.SIMULATE_FAULTS = false;
}
if(data.WEBHOOK_TIMEOUT_MS === undefined){
data.WEBHOOK_TIMEOUT_MS = 10000;
}
if(data.WEBHOOK_RETRY_BASE_MS === undefined){
data.WEBHOOK_RETRY_BASE_MS = 5000;
}
if(data.WEBHOOK_RETRY_MAX_MS === undefined){
data.WEBHOOK_RETRY_MAX_MS = 3600000;
}
if(data.WEBHOOK_MAX_ATTEMPTS === undefined){
data.WEBHOOK_MAX_ATTEMPTS = 15;
}
if(data.WEBHOOK_MAX_PENDING === undefined){
data.WEBHOOK_MAX_PENDING = 10000;
}
if(data.WEBHOOK_POLL_MS === undefined){
data.WEBHOOK_POLL_MS = 1000;
}
if(data.WEBHOOK_DELIVERY === undefined){
data.WEBHOOK_DELIVERY = true;
}
for(const key0 in data){
if(!(func0.call(schema0.properties, key0))){
delete data[key0];
}
}
let data0 = data.NODE_ENV;
if(!(((data0 === "development") || (data0 === "production")) || (data0 === "test"))){
const err0 = {instancePath:instancePath+"/NODE_ENV",schemaPath:"#/properties/NODE_ENV/enum",keyword:"enum",params:{allowedValues: schema0.properties.NODE_ENV.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
let data1 = data.HOST;
if(typeof data1 !== "string"){
let dataType0 = typeof data1;
let coerced0 = undefined;
if(!(coerced0 !== undefined)){
if(dataType0 == "number" || dataType0 == "boolean"){
coerced0 = "" + data1;
}
else if(data1 === null){
coerced0 = "";
}
else {
const err1 = {instancePath:instancePath+"/HOST",schemaPath:"#/properties/HOST/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(coerced0 !== undefined){
data1 = coerced0;
if(data !== undefined){
data["HOST"] = coerced0;
}
}
}
if(typeof data1 === "string"){
if(func1(data1) < 1){
const err2 = {instancePath:instancePath+"/HOST",schemaPath:"#/properties/HOST/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
let data2 = data.PORT;
if(!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2)))){
let dataType1 = typeof data2;
let coerced1 = undefined;
if(!(coerced1 !== undefined)){
if(dataType1 === "boolean" || data2 === null
              || (dataType1 === "string" && data2 && data2 == +data2 && !(data2 % 1))){
coerced1 = +data2;
}
else {
const err3 = {instancePath:instancePath+"/PORT",schemaPath:"#/properties/PORT/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(coerced1 !== undefined){
data2 = coerced1;
if(data !== undefined){
data["PORT"] = coerced1;
}
}
}
if((typeof data2 == "number") && (isFinite(data2))){
if(data2 > 65535 || isNaN(data2)){
const err4 = {instancePath:instancePath+"/PORT",schemaPath:"#/properties/PORT/maximum",keyword:"maximum",params:{comparison: "<=", limit: 65535},message:"must be <= 65535"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data2 < 0 || isNaN(data2)){
const err5 = {instancePath:instancePath+"/PORT",schemaPath:"#/properties/PORT/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
let data3 = data.LOG_LEVEL;
if(!(((((((data3 === "fatal") || (data3 === "error")) || (data3 === "warn")) || (data3 === "info")) || (data3 === "debug")) || (data3 === "trace")) || (data3 === "silent"))){
const err6 = {instancePath:instancePath+"/LOG_LEVEL",schemaPath:"#/properties/LOG_LEVEL/enum",keyword:"enum",params:{allowedValues: schema0.properties.LOG_LEVEL.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
let data4 = data.DATABASE_URL;
if(typeof data4 !== "string"){
let dataType2 = typeof data4;
let coerced2 = undefined;
if(!(coerced2 !== undefined)){
if(dataType2 == "number" || dataType2 == "boolean"){
coerced2 = "" + data4;
}
else if(data4 === null){
coerced2 = "";
}
else {
const err7 = {instancePath:instancePath+"/DATABASE_URL",schemaPath:"#/properties/DATABASE_URL/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(coerced2 !== undefined){
data4 = coerced2;
if(data !== undefined){
data["DATABASE_URL"] = coerced2;
}
}
}
if(typeof data4 === "string"){
if(!pattern0.test(data4)){
const err8 = {instancePath:instancePath+"/DATABASE_URL",schemaPath:"#/properties/DATABASE_URL/pattern",keyword:"pattern",params:{pattern: "^(sqlite:.+|postgres(ql)?://.+)$"},message:"must match pattern \""+"^(sqlite:.+|postgres(ql)?://.+)$"+"\""};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
let data5 = data.DATABASE_POOL_SIZE;
if(!(((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5))) && (isFinite(data5)))){
let dataType3 = typeof data5;
let coerced3 = undefined;
if(!(coerced3 !== undefined)){
if(dataType3 === "boolean" || data5 === null
              || (dataType3 === "string" && data5 && data5 == +data5 && !(data5 % 1))){
coerced3 = +data5;
}
else {
const err9 = {instancePath:instancePath+"/DATABASE_POOL_SIZE",schemaPath:"#/properties/DATABASE_POOL_SIZE/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(coerced3 !== undefined){
data5 = coerced3;
if(data !== undefined){
data["DATABASE_POOL_SIZE"] = coerced3;
}
}
}
if((typeof data5 == "number") && (isFinite(data5))){
if(data5 > 1000 || isNaN(data5)){
const err10 = {instancePath:instancePath+"/DATABASE_POOL_SIZE",schemaPath:"#/properties/DATABASE_POOL_SIZE/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(data5 < 1 || isNaN(data5)){
const err11 = {instancePath:instancePath+"/DATABASE_POOL_SIZE",schemaPath:"#/properties/DATABASE_POOL_SIZE/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
let data6 = data.DATABASE_CONNECT_TIMEOUT_MS;
if(!(((typeof data6 == "number") && (!(data6 % 1) && !isNaN(data6))) && (isFinite(data6)))){
let dataType4 = typeof data6;
let coerced4 = undefined;
if(!(coerced4 !== undefined)){
if(dataType4 === "boolean" || data6 === null
              || (dataType4 === "string" && data6 && data6 == +data6 && !(data6 % 1))){
coerced4 = +data6;
}
else {
const err12 = {instancePath:instancePath+"/DATABASE_CONNECT_TIMEOUT_MS",schemaPath:"#/properties/DATABASE_CONNECT_TIMEOUT_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(coerced4 !== undefined){
data6 = coerced4;
if(data !== undefined){
data["DATABASE_CONNECT_TIMEOUT_MS"] = coerced4;
}
}
}
if((typeof data6 == "number") && (isFinite(data6))){
if(data6 > 600000 || isNaN(data6)){
const err13 = {instancePath:instancePath+"/DATABASE_CONNECT_TIMEOUT_MS",schemaPath:"#/properties/DATABASE_CONNECT_TIMEOUT_MS/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data6 < 1 || isNaN(data6)){
const err14 = {instancePath:instancePath+"/DATABASE_CONNECT_TIMEOUT_MS",schemaPath:"#/properties/DATABASE_CONNECT_TIMEOUT_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
let data7 = data.DATABASE_STATEMENT_TIMEOUT_MS;
if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){
let dataType5 = typeof data7;
let coerced5 = undefined;
if(!(coerced5 !== undefined)){
if(dataType5 === "boolean" || data7 === null
              || (dataType5 === "string" && data7 && data7 == +data7 && !(data7 % 1))){
coerced5 = +data7;
}
else {
const err15 = {instancePath:instancePath+"/DATABASE_STATEMENT_TIMEOUT_MS",schemaPath:"#/properties/DATABASE_STATEMENT_TIMEOUT_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(coerced5 !== undefined){
data7 = coerced5;
if(data !== undefined){
data["DATABASE_STATEMENT_TIMEOUT_MS"] = coerced5;
}
}
}
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 > 600000 || isNaN(data7)){
const err16 = {instancePath:instancePath+"/DATABASE_STATEMENT_TIMEOUT_MS",schemaPath:"#/properties/DATABASE_STATEMENT_TIMEOUT_MS/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
if(data7 < 1 || isNaN(data7)){
const err17 = {instancePath:instancePath+"/DATABASE_STATEMENT_TIMEOUT_MS",schemaPath:"#/properties/DATABASE_STATEMENT_TIMEOUT_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.AUTH_TOKENS !== undefined){
let data8 = data.AUTH_TOKENS;
if(typeof data8 !== "string"){
let dataType6 = typeof data8;
let coerced6 = undefined;
if(!(coerced6 !== undefined)){
if(dataType6 == "number" || dataType6 == "boolean"){
coerced6 = "" + data8;
}
else if(data8 === null){
coerced6 = "";
}
else {
const err18 = {instancePath:instancePath+"/AUTH_TOKENS",schemaPath:"#/properties/AUTH_TOKENS/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(coerced6 !== undefined){
data8 = coerced6;
if(data !== undefined){
data["AUTH_TOKENS"] = coerced6;
}
}
}
if(typeof data8 === "string"){
if(!pattern1.test(data8)){
const err19 = {instancePath:instancePath+"/AUTH_TOKENS",schemaPath:"#/properties/AUTH_TOKENS/pattern",keyword:"pattern",params:{pattern: "^[^:,\\s]+:[^:,\\s]+(,[^:,\\s]+:[^:,\\s]+)*$"},message:"must match pattern \""+"^[^:,\\s]+:[^:,\\s]+(,[^:,\\s]+:[^:,\\s]+)*$"+"\""};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
if(data.JWT_JWKS_URL !== undefined){
let data9 = data.JWT_JWKS_URL;
if(typeof data9 !== "string"){
let dataType7 = typeof data9;
let coerced7 = undefined;
if(!(coerced7 !== undefined)){
if(dataType7 == "number" || dataType7 == "boolean"){
coerced7 = "" + data9;
}
else if(data9 === null){
coerced7 = "";
}
else {
const err20 = {instancePath:instancePath+"/JWT_JWKS_URL",schemaPath:"#/properties/JWT_JWKS_URL/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(coerced7 !== undefined){
data9 = coerced7;
if(data !== undefined){
data["JWT_JWKS_URL"] = coerced7;
}
}
}
}
if(data.JWT_SECRET !== undefined){
let data10 = data.JWT_SECRET;
if(typeof data10 !== "string"){
let dataType8 = typeof data10;
let coerced8 = undefined;
if(!(coerced8 !== undefined)){
if(dataType8 == "number" || dataType8 == "boolean"){
coerced8 = "" + data10;
}
else if(data10 === null){
coerced8 = "";
}
else {
const err21 = {instancePath:instancePath+"/JWT_SECRET",schemaPath:"#/properties/JWT_SECRET/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(coerced8 !== undefined){
data10 = coerced8;
if(data !== undefined){
data["JWT_SECRET"] = coerced8;
}
}
}
if(typeof data10 === "string"){
if(func1(data10) < 32){
const err22 = {instancePath:instancePath+"/JWT_SECRET",schemaPath:"#/properties/JWT_SECRET/minLength",keyword:"minLength",params:{limit: 32},message:"must NOT have fewer than 32 characters"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
if(data.JWT_ISSUER !== undefined){
let data11 = data.JWT_ISSUER;
if(typeof data11 !== "string"){
let dataType9 = typeof data11;
let coerced9 = undefined;
if(!(coerced9 !== undefined)){
if(dataType9 == "number" || dataType9 == "boolean"){
coerced9 = "" + data11;
}
else if(data11 === null){
coerced9 = "";
}
else {
const err23 = {instancePath:instancePath+"/JWT_ISSUER",schemaPath:"#/properties/JWT_ISSUER/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(coerced9 !== undefined){
data11 = coerced9;
if(data !== undefined){
data["JWT_ISSUER"] = coerced9;
}
}
}
}
if(data.JWT_AUDIENCE !== undefined){
let data12 = data.JWT_AUDIENCE;
if(typeof data12 !== "string"){
let dataType10 = typeof data12;
let coerced10 = undefined;
if(!(coerced10 !== undefined)){
if(dataType10 == "number" || dataType10 == "boolean"){
coerced10 = "" + data12;
}
else if(data12 === null){
coerced10 = "";
}
else {
const err24 = {instancePath:instancePath+"/JWT_AUDIENCE",schemaPath:"#/properties/JWT_AUDIENCE/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(coerced10 !== undefined){
data12 = coerced10;
if(data !== undefined){
data["JWT_AUDIENCE"] = coerced10;
}
}
}
}
let data13 = data.SANDBOX;
if(typeof data13 !== "boolean"){
let coerced11 = undefined;
if(!(coerced11 !== undefined)){
if(data13 === "false" || data13 === 0 || data13 === null){
coerced11 = false;
}
else if(data13 === "true" || data13 === 1){
coerced11 = true;
}
else {
const err25 = {instancePath:instancePath+"/SANDBOX",schemaPath:"#/properties/SANDBOX/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(coerced11 !== undefined){
data13 = coerced11;
if(data !== undefined){
data["SANDBOX"] = coerced11;
}
}
}
if(data.SANDBOX_SEED !== undefined){
let data14 = data.SANDBOX_SEED;
if(typeof data14 !== "string"){
let dataType12 = typeof data14;
let coerced12 = undefined;
if(!(coerced12 !== undefined)){
if(dataType12 == "number" || dataType12 == "boolean"){
coerced12 = "" + data14;
}
else if(data14 === null){
coerced12 = "";
}
else {
const err26 = {instancePath:instancePath+"/SANDBOX_SEED",schemaPath:"#/properties/SANDBOX_SEED/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(coerced12 !== undefined){
data14 = coerced12;
if(data !== undefined){
data["SANDBOX_SEED"] = coerced12;
}
}
}
}
let data15 = data.SANDBOX_MAX_PRINCIPALS;
if(!(((typeof data15 == "number") && (!(data15 % 1) && !isNaN(data15))) && (isFinite(data15)))){
let dataType13 = typeof data15;
let coerced13 = undefined;
if(!(coerced13 !== undefined)){
if(dataType13 === "boolean" || data15 === null
              || (dataType13 === "string" && data15 && data15 == +data15 && !(data15 % 1))){
coerced13 = +data15;
}
else {
const err27 = {instancePath:instancePath+"/SANDBOX_MAX_PRINCIPALS",schemaPath:"#/properties/SANDBOX_MAX_PRINCIPALS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(coerced13 !== undefined){
data15 = coerced13;
if(data !== undefined){
data["SANDBOX_MAX_PRINCIPALS"] = coerced13;
}
}
}
if((typeof data15 == "number") && (isFinite(data15))){
if(data15 < 1 || isNaN(data15)){
const err28 = {instancePath:instancePath+"/SANDBOX_MAX_PRINCIPALS",schemaPath:"#/properties/SANDBOX_MAX_PRINCIPALS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.CORS_ORIGIN !== undefined){
let data16 = data.CORS_ORIGIN;
if(typeof data16 !== "string"){
let dataType14 = typeof data16;
let coerced14 = undefined;
if(!(coerced14 !== undefined)){
if(dataType14 == "number" || dataType14 == "boolean"){
coerced14 = "" + data16;
}
else if(data16 === null){
coerced14 = "";
}
else {
const err29 = {instancePath:instancePath+"/CORS_ORIGIN",schemaPath:"#/properties/CORS_ORIGIN/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(coerced14 !== undefined){
data16 = coerced14;
if(data !== undefined){
data["CORS_ORIGIN"] = coerced14;
}
}
}
}
let data17 = data.RATE_LIMIT_MAX;
if(!(((typeof data17 == "number") && (!(data17 % 1) && !isNaN(data17))) && (isFinite(data17)))){
let dataType15 = typeof data17;
let coerced15 = undefined;
if(!(coerced15 !== undefined)){
if(dataType15 === "boolean" || data17 === null
              || (dataType15 === "string" && data17 && data17 == +data17 && !(data17 % 1))){
coerced15 = +data17;
}
else {
const err30 = {instancePath:instancePath+"/RATE_LIMIT_MAX",schemaPath:"#/properties/RATE_LIMIT_MAX/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(coerced15 !== undefined){
data17 = coerced15;
if(data !== undefined){
data["RATE_LIMIT_MAX"] = coerced15;
}
}
}
if((typeof data17 == "number") && (isFinite(data17))){
if(data17 < 1 || isNaN(data17)){
const err31 = {instancePath:instancePath+"/RATE_LIMIT_MAX",schemaPath:"#/properties/RATE_LIMIT_MAX/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
let data18 = data.RATE_LIMIT_WINDOW;
if(!(((typeof data18 == "number") && (!(data18 % 1) && !isNaN(data18))) && (isFinite(data18)))){
let dataType16 = typeof data18;
let coerced16 = undefined;
if(!(coerced16 !== undefined)){
if(dataType16 === "boolean" || data18 === null
              || (dataType16 === "string" && data18 && data18 == +data18 && !(data18 % 1))){
coerced16 = +data18;
}
else {
const err32 = {instancePath:instancePath+"/RATE_LIMIT_WINDOW",schemaPath:"#/properties/RATE_LIMIT_WINDOW/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(coerced16 !== undefined){
data18 = coerced16;
if(data !== undefined){
data["RATE_LIMIT_WINDOW"] = coerced16;
}
}
}
if((typeof data18 == "number") && (isFinite(data18))){
if(data18 > 86400 || isNaN(data18)){
const err33 = {instancePath:instancePath+"/RATE_LIMIT_WINDOW",schemaPath:"#/properties/RATE_LIMIT_WINDOW/maximum",keyword:"maximum",params:{comparison: "<=", limit: 86400},message:"must be <= 86400"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
if(data18 < 1 || isNaN(data18)){
const err34 = {instancePath:instancePath+"/RATE_LIMIT_WINDOW",schemaPath:"#/properties/RATE_LIMIT_WINDOW/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
let data19 = data.AUTH_FAILURE_LIMIT;
if(!(((typeof data19 == "number") && (!(data19 % 1) && !isNaN(data19))) && (isFinite(data19)))){
let dataType17 = typeof data19;
let coerced17 = undefined;
if(!(coerced17 !== undefined)){
if(dataType17 === "boolean" || data19 === null
              || (dataType17 === "string" && data19 && data19 == +data19 && !(data19 % 1))){
coerced17 = +data19;
}
else {
const err35 = {instancePath:instancePath+"/AUTH_FAILURE_LIMIT",schemaPath:"#/properties/AUTH_FAILURE_LIMIT/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(coerced17 !== undefined){
data19 = coerced17;
if(data !== undefined){
data["AUTH_FAILURE_LIMIT"] = coerced17;
}
}
}
if((typeof data19 == "number") && (isFinite(data19))){
if(data19 < 1 || isNaN(data19)){
const err36 = {instancePath:instancePath+"/AUTH_FAILURE_LIMIT",schemaPath:"#/properties/AUTH_FAILURE_LIMIT/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
let data20 = data.HEADERS_TIMEOUT_MS;
if(!(((typeof data20 == "number") && (!(data20 % 1) && !isNaN(data20))) && (isFinite(data20)))){
let dataType18 = typeof data20;
let coerced18 = undefined;
if(!(coerced18 !== undefined)){
if(dataType18 === "boolean" || data20 === null
              || (dataType18 === "string" && data20 && data20 == +data20 && !(data20 % 1))){
coerced18 = +data20;
}
else {
const err37 = {instancePath:instancePath+"/HEADERS_TIMEOUT_MS",schemaPath:"#/properties/HEADERS_TIMEOUT_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
if(coerced18 !== undefined){
data20 = coerced18;
if(data !== undefined){
data["HEADERS_TIMEOUT_MS"] = coerced18;
}
}
}
if((typeof data20 == "number") && (isFinite(data20))){
if(data20 < 1 || isNaN(data20)){
const err38 = {instancePath:instancePath+"/HEADERS_TIMEOUT_MS",schemaPath:"#/properties/HEADERS_TIMEOUT_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
let data21 = data.REQUEST_TIMEOUT_MS;
if(!(((typeof data21 == "number") && (!(data21 % 1) && !isNaN(data21))) && (isFinite(data21)))){
let dataType19 = typeof data21;
let coerced19 = undefined;
if(!(coerced19 !== undefined)){
if(dataType19 === "boolean" || data21 === null
              || (dataType19 === "string" && data21 && data21 == +data21 && !(data21 % 1))){
coerced19 = +data21;
}
else {
const err39 = {instancePath:instancePath+"/REQUEST_TIMEOUT_MS",schemaPath:"#/properties/REQUEST_TIMEOUT_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
if(coerced19 !== undefined){
data21 = coerced19;
if(data !== undefined){
data["REQUEST_TIMEOUT_MS"] = coerced19;
}
}
}
if((typeof data21 == "number") && (isFinite(data21))){
if(data21 < 1 || isNaN(data21)){
const err40 = {instancePath:instancePath+"/REQUEST_TIMEOUT_MS",schemaPath:"#/properties/REQUEST_TIMEOUT_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
let data22 = data.KEEP_ALIVE_TIMEOUT_MS;
if(!(((typeof data22 == "number") && (!(data22 % 1) && !isNaN(data22))) && (isFinite(data22)))){
let dataType20 = typeof data22;
let coerced20 = undefined;
if(!(coerced20 !== undefined)){
if(dataType20 === "boolean" || data22 === null
              || (dataType20 === "string" && data22 && data22 == +data22 && !(data22 % 1))){
coerced20 = +data22;
}
else {
const err41 = {instancePath:instancePath+"/KEEP_ALIVE_TIMEOUT_MS",schemaPath:"#/properties/KEEP_ALIVE_TIMEOUT_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
if(coerced20 !== undefined){
data22 = coerced20;
if(data !== undefined){
data["KEEP_ALIVE_TIMEOUT_MS"] = coerced20;
}
}
}
if((typeof data22 == "number") && (isFinite(data22))){
if(data22 < 1 || isNaN(data22)){
const err42 = {instancePath:instancePath+"/KEEP_ALIVE_TIMEOUT_MS",schemaPath:"#/properties/KEEP_ALIVE_TIMEOUT_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
let data23 = data.CONNECTION_TIMEOUT_MS;
if(!(((typeof data23 == "number") && (!(data23 % 1) && !isNaN(data23))) && (isFinite(data23)))){
let dataType21 = typeof data23;
let coerced21 = undefined;
if(!(coerced21 !== undefined)){
if(dataType21 === "boolean" || data23 === null
              || (dataType21 === "string" && data23 && data23 == +data23 && !(data23 % 1))){
coerced21 = +data23;
}
else {
const err43 = {instancePath:instancePath+"/CONNECTION_TIMEOUT_MS",schemaPath:"#/properties/CONNECTION_TIMEOUT_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
if(coerced21 !== undefined){
data23 = coerced21;
if(data !== undefined){
data["CONNECTION_TIMEOUT_MS"] = coerced21;
}
}
}
if((typeof data23 == "number") && (isFinite(data23))){
if(data23 < 0 || isNaN(data23)){
const err44 = {instancePath:instancePath+"/CONNECTION_TIMEOUT_MS",schemaPath:"#/properties/CONNECTION_TIMEOUT_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
let data24 = data.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS;
if(!(((typeof data24 == "number") && (!(data24 % 1) && !isNaN(data24))) && (isFinite(data24)))){
let dataType22 = typeof data24;
let coerced22 = undefined;
if(!(coerced22 !== undefined)){
if(dataType22 === "boolean" || data24 === null
              || (dataType22 === "string" && data24 && data24 == +data24 && !(data24 % 1))){
coerced22 = +data24;
}
else {
const err45 = {instancePath:instancePath+"/OVERLOAD_MAX_EVENT_LOOP_DELAY_MS",schemaPath:"#/properties/OVERLOAD_MAX_EVENT_LOOP_DELAY_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
if(coerced22 !== undefined){
data24 = coerced22;
if(data !== undefined){
data["OVERLOAD_MAX_EVENT_LOOP_DELAY_MS"] = coerced22;
}
}
}
if((typeof data24 == "number") && (isFinite(data24))){
if(data24 < 0 || isNaN(data24)){
const err46 = {instancePath:instancePath+"/OVERLOAD_MAX_EVENT_LOOP_DELAY_MS",schemaPath:"#/properties/OVERLOAD_MAX_EVENT_LOOP_DELAY_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
let data25 = data.OVERLOAD_MAX_HEAP_USED_BYTES;
if(!(((typeof data25 == "number") && (!(data25 % 1) && !isNaN(data25))) && (isFinite(data25)))){
let dataType23 = typeof data25;
let coerced23 = undefined;
if(!(coerced23 !== undefined)){
if(dataType23 === "boolean" || data25 === null
              || (dataType23 === "string" && data25 && data25 == +data25 && !(data25 % 1))){
coerced23 = +data25;
}
else {
const err47 = {instancePath:instancePath+"/OVERLOAD_MAX_HEAP_USED_BYTES",schemaPath:"#/properties/OVERLOAD_MAX_HEAP_USED_BYTES/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
if(coerced23 !== undefined){
data25 = coerced23;
if(data !== undefined){
data["OVERLOAD_MAX_HEAP_USED_BYTES"] = coerced23;
}
}
}
if((typeof data25 == "number") && (isFinite(data25))){
if(data25 < 0 || isNaN(data25)){
const err48 = {instancePath:instancePath+"/OVERLOAD_MAX_HEAP_USED_BYTES",schemaPath:"#/properties/OVERLOAD_MAX_HEAP_USED_BYTES/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
let data26 = data.OVERLOAD_MAX_RSS_BYTES;
if(!(((typeof data26 == "number") && (!(data26 % 1) && !isNaN(data26))) && (isFinite(data26)))){
let dataType24 = typeof data26;
let coerced24 = undefined;
if(!(coerced24 !== undefined)){
if(dataType24 === "boolean" || data26 === null
              || (dataType24 === "string" && data26 && data26 == +data26 && !(data26 % 1))){
coerced24 = +data26;
}
else {
const err49 = {instancePath:instancePath+"/OVERLOAD_MAX_RSS_BYTES",schemaPath:"#/properties/OVERLOAD_MAX_RSS_BYTES/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
if(coerced24 !== undefined){
data26 = coerced24;
if(data !== undefined){
data["OVERLOAD_MAX_RSS_BYTES"] = coerced24;
}
}
}
if((typeof data26 == "number") && (isFinite(data26))){
if(data26 < 0 || isNaN(data26)){
const err50 = {instancePath:instancePath+"/OVERLOAD_MAX_RSS_BYTES",schemaPath:"#/properties/OVERLOAD_MAX_RSS_BYTES/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
let data27 = data.RETRY_AFTER_SECONDS;
if(!(((typeof data27 == "number") && (!(data27 % 1) && !isNaN(data27))) && (isFinite(data27)))){
let dataType25 = typeof data27;
let coerced25 = undefined;
if(!(coerced25 !== undefined)){
if(dataType25 === "boolean" || data27 === null
              || (dataType25 === "string" && data27 && data27 == +data27 && !(data27 % 1))){
coerced25 = +data27;
}
else {
const err51 = {instancePath:instancePath+"/RETRY_AFTER_SECONDS",schemaPath:"#/properties/RETRY_AFTER_SECONDS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
if(coerced25 !== undefined){
data27 = coerced25;
if(data !== undefined){
data["RETRY_AFTER_SECONDS"] = coerced25;
}
}
}
if((typeof data27 == "number") && (isFinite(data27))){
if(data27 < 1 || isNaN(data27)){
const err52 = {instancePath:instancePath+"/RETRY_AFTER_SECONDS",schemaPath:"#/properties/RETRY_AFTER_SECONDS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
}
if(data.SQLITE_MAX_PAGE_COUNT !== undefined){
let data28 = data.SQLITE_MAX_PAGE_COUNT;
if(!(((typeof data28 == "number") && (!(data28 % 1) && !isNaN(data28))) && (isFinite(data28)))){
let dataType26 = typeof data28;
let coerced26 = undefined;
if(!(coerced26 !== undefined)){
if(dataType26 === "boolean" || data28 === null
              || (dataType26 === "string" && data28 && data28 == +data28 && !(data28 % 1))){
coerced26 = +data28;
}
else {
const err53 = {instancePath:instancePath+"/SQLITE_MAX_PAGE_COUNT",schemaPath:"#/properties/SQLITE_MAX_PAGE_COUNT/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
}
if(coerced26 !== undefined){
data28 = coerced26;
if(data !== undefined){
data["SQLITE_MAX_PAGE_COUNT"] = coerced26;
}
}
}
if((typeof data28 == "number") && (isFinite(data28))){
if(data28 < 1 || isNaN(data28)){
const err54 = {instancePath:instancePath+"/SQLITE_MAX_PAGE_COUNT",schemaPath:"#/properties/SQLITE_MAX_PAGE_COUNT/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
}
}
let data29 = data.DATABASE_READ_ONLY;
if(typeof data29 !== "boolean"){
let coerced27 = undefined;
if(!(coerced27 !== undefined)){
if(data29 === "false" || data29 === 0 || data29 === null){
coerced27 = false;
}
else if(data29 === "true" || data29 === 1){
coerced27 = true;
}
else {
const err55 = {instancePath:instancePath+"/DATABASE_READ_ONLY",schemaPath:"#/properties/DATABASE_READ_ONLY/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
}
if(coerced27 !== undefined){
data29 = coerced27;
if(data !== undefined){
data["DATABASE_READ_ONLY"] = coerced27;
}
}
}
let data30 = data.SIMULATE_FAULTS;
if(typeof data30 !== "boolean"){
let coerced28 = undefined;
if(!(coerced28 !== undefined)){
if(data30 === "false" || data30 === 0 || data30 === null){
coerced28 = false;
}
else if(data30 === "true" || data30 === 1){
coerced28 = true;
}
else {
const err56 = {instancePath:instancePath+"/SIMULATE_FAULTS",schemaPath:"#/properties/SIMULATE_FAULTS/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
}
if(coerced28 !== undefined){
data30 = coerced28;
if(data !== undefined){
data["SIMULATE_FAULTS"] = coerced28;
}
}
}
if(data.WEBHOOK_ENDPOINTS !== undefined){
let data31 = data.WEBHOOK_ENDPOINTS;
if(typeof data31 !== "string"){
let dataType29 = typeof data31;
let coerced29 = undefined;
if(!(coerced29 !== undefined)){
if(dataType29 == "number" || dataType29 == "boolean"){
coerced29 = "" + data31;
}
else if(data31 === null){
coerced29 = "";
}
else {
const err57 = {instancePath:instancePath+"/WEBHOOK_ENDPOINTS",schemaPath:"#/properties/WEBHOOK_ENDPOINTS/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
if(coerced29 !== undefined){
data31 = coerced29;
if(data !== undefined){
data["WEBHOOK_ENDPOINTS"] = coerced29;
}
}
}
}
if(data.WEBHOOK_SECRET !== undefined){
let data32 = data.WEBHOOK_SECRET;
if(typeof data32 !== "string"){
let dataType30 = typeof data32;
let coerced30 = undefined;
if(!(coerced30 !== undefined)){
if(dataType30 == "number" || dataType30 == "boolean"){
coerced30 = "" + data32;
}
else if(data32 === null){
coerced30 = "";
}
else {
const err58 = {instancePath:instancePath+"/WEBHOOK_SECRET",schemaPath:"#/properties/WEBHOOK_SECRET/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
}
if(coerced30 !== undefined){
data32 = coerced30;
if(data !== undefined){
data["WEBHOOK_SECRET"] = coerced30;
}
}
}
}
let data33 = data.WEBHOOK_TIMEOUT_MS;
if(!(((typeof data33 == "number") && (!(data33 % 1) && !isNaN(data33))) && (isFinite(data33)))){
let dataType31 = typeof data33;
let coerced31 = undefined;
if(!(coerced31 !== undefined)){
if(dataType31 === "boolean" || data33 === null
              || (dataType31 === "string" && data33 && data33 == +data33 && !(data33 % 1))){
coerced31 = +data33;
}
else {
const err59 = {instancePath:instancePath+"/WEBHOOK_TIMEOUT_MS",schemaPath:"#/properties/WEBHOOK_TIMEOUT_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
}
if(coerced31 !== undefined){
data33 = coerced31;
if(data !== undefined){
data["WEBHOOK_TIMEOUT_MS"] = coerced31;
}
}
}
if((typeof data33 == "number") && (isFinite(data33))){
if(data33 > 600000 || isNaN(data33)){
const err60 = {instancePath:instancePath+"/WEBHOOK_TIMEOUT_MS",schemaPath:"#/properties/WEBHOOK_TIMEOUT_MS/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
if(data33 < 1 || isNaN(data33)){
const err61 = {instancePath:instancePath+"/WEBHOOK_TIMEOUT_MS",schemaPath:"#/properties/WEBHOOK_TIMEOUT_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
}
let data34 = data.WEBHOOK_RETRY_BASE_MS;
if(!(((typeof data34 == "number") && (!(data34 % 1) && !isNaN(data34))) && (isFinite(data34)))){
let dataType32 = typeof data34;
let coerced32 = undefined;
if(!(coerced32 !== undefined)){
if(dataType32 === "boolean" || data34 === null
              || (dataType32 === "string" && data34 && data34 == +data34 && !(data34 % 1))){
coerced32 = +data34;
}
else {
const err62 = {instancePath:instancePath+"/WEBHOOK_RETRY_BASE_MS",schemaPath:"#/properties/WEBHOOK_RETRY_BASE_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
}
if(coerced32 !== undefined){
data34 = coerced32;
if(data !== undefined){
data["WEBHOOK_RETRY_BASE_MS"] = coerced32;
}
}
}
if((typeof data34 == "number") && (isFinite(data34))){
if(data34 < 1 || isNaN(data34)){
const err63 = {instancePath:instancePath+"/WEBHOOK_RETRY_BASE_MS",schemaPath:"#/properties/WEBHOOK_RETRY_BASE_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
}
let data35 = data.WEBHOOK_RETRY_MAX_MS;
if(!(((typeof data35 == "number") && (!(data35 % 1) && !isNaN(data35))) && (isFinite(data35)))){
let dataType33 = typeof data35;
let coerced33 = undefined;
if(!(coerced33 !== undefined)){
if(dataType33 === "boolean" || data35 === null
              || (dataType33 === "string" && data35 && data35 == +data35 && !(data35 % 1))){
coerced33 = +data35;
}
else {
const err64 = {instancePath:instancePath+"/WEBHOOK_RETRY_MAX_MS",schemaPath:"#/properties/WEBHOOK_RETRY_MAX_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
}
if(coerced33 !== undefined){
data35 = coerced33;
if(data !== undefined){
data["WEBHOOK_RETRY_MAX_MS"] = coerced33;
}
}
}
if((typeof data35 == "number") && (isFinite(data35))){
if(data35 < 1 || isNaN(data35)){
const err65 = {instancePath:instancePath+"/WEBHOOK_RETRY_MAX_MS",schemaPath:"#/properties/WEBHOOK_RETRY_MAX_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err65];
}
else {
vErrors.push(err65);
}
errors++;
}
}
let data36 = data.WEBHOOK_MAX_ATTEMPTS;
if(!(((typeof data36 == "number") && (!(data36 % 1) && !isNaN(data36))) && (isFinite(data36)))){
let dataType34 = typeof data36;
let coerced34 = undefined;
if(!(coerced34 !== undefined)){
if(dataType34 === "boolean" || data36 === null
              || (dataType34 === "string" && data36 && data36 == +data36 && !(data36 % 1))){
coerced34 = +data36;
}
else {
const err66 = {instancePath:instancePath+"/WEBHOOK_MAX_ATTEMPTS",schemaPath:"#/properties/WEBHOOK_MAX_ATTEMPTS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err66];
}
else {
vErrors.push(err66);
}
errors++;
}
}
if(coerced34 !== undefined){
data36 = coerced34;
if(data !== undefined){
data["WEBHOOK_MAX_ATTEMPTS"] = coerced34;
}
}
}
if((typeof data36 == "number") && (isFinite(data36))){
if(data36 > 100 || isNaN(data36)){
const err67 = {instancePath:instancePath+"/WEBHOOK_MAX_ATTEMPTS",schemaPath:"#/properties/WEBHOOK_MAX_ATTEMPTS/maximum",keyword:"maximum",params:{comparison: "<=", limit: 100},message:"must be <= 100"};
if(vErrors === null){
vErrors = [err67];
}
else {
vErrors.push(err67);
}
errors++;
}
if(data36 < 1 || isNaN(data36)){
const err68 = {instancePath:instancePath+"/WEBHOOK_MAX_ATTEMPTS",schemaPath:"#/properties/WEBHOOK_MAX_ATTEMPTS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err68];
}
else {
vErrors.push(err68);
}
errors++;
}
}
let data37 = data.WEBHOOK_MAX_PENDING;
if(!(((typeof data37 == "number") && (!(data37 % 1) && !isNaN(data37))) && (isFinite(data37)))){
let dataType35 = typeof data37;
let coerced35 = undefined;
if(!(coerced35 !== undefined)){
if(dataType35 === "boolean" || data37 === null
              || (dataType35 === "string" && data37 && data37 == +data37 && !(data37 % 1))){
coerced35 = +data37;
}
else {
const err69 = {instancePath:instancePath+"/WEBHOOK_MAX_PENDING",schemaPath:"#/properties/WEBHOOK_MAX_PENDING/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err69];
}
else {
vErrors.push(err69);
}
errors++;
}
}
if(coerced35 !== undefined){
data37 = coerced35;
if(data !== undefined){
data["WEBHOOK_MAX_PENDING"] = coerced35;
}
}
}
if((typeof data37 == "number") && (isFinite(data37))){
if(data37 < 1 || isNaN(data37)){
const err70 = {instancePath:instancePath+"/WEBHOOK_MAX_PENDING",schemaPath:"#/properties/WEBHOOK_MAX_PENDING/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err70];
}
else {
vErrors.push(err70);
}
errors++;
}
}
let data38 = data.WEBHOOK_POLL_MS;
if(!(((typeof data38 == "number") && (!(data38 % 1) && !isNaN(data38))) && (isFinite(data38)))){
let dataType36 = typeof data38;
let coerced36 = undefined;
if(!(coerced36 !== undefined)){
if(dataType36 === "boolean" || data38 === null
              || (dataType36 === "string" && data38 && data38 == +data38 && !(data38 % 1))){
coerced36 = +data38;
}
else {
const err71 = {instancePath:instancePath+"/WEBHOOK_POLL_MS",schemaPath:"#/properties/WEBHOOK_POLL_MS/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err71];
}
else {
vErrors.push(err71);
}
errors++;
}
}
if(coerced36 !== undefined){
data38 = coerced36;
if(data !== undefined){
data["WEBHOOK_POLL_MS"] = coerced36;
}
}
}
if((typeof data38 == "number") && (isFinite(data38))){
if(data38 > 600000 || isNaN(data38)){
const err72 = {instancePath:instancePath+"/WEBHOOK_POLL_MS",schemaPath:"#/properties/WEBHOOK_POLL_MS/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"};
if(vErrors === null){
vErrors = [err72];
}
else {
vErrors.push(err72);
}
errors++;
}
if(data38 < 10 || isNaN(data38)){
const err73 = {instancePath:instancePath+"/WEBHOOK_POLL_MS",schemaPath:"#/properties/WEBHOOK_POLL_MS/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"};
if(vErrors === null){
vErrors = [err73];
}
else {
vErrors.push(err73);
}
errors++;
}
}
let data39 = data.WEBHOOK_DELIVERY;
if(typeof data39 !== "boolean"){
let coerced37 = undefined;
if(!(coerced37 !== undefined)){
if(data39 === "false" || data39 === 0 || data39 === null){
coerced37 = false;
}
else if(data39 === "true" || data39 === 1){
coerced37 = true;
}
else {
const err74 = {instancePath:instancePath+"/WEBHOOK_DELIVERY",schemaPath:"#/properties/WEBHOOK_DELIVERY/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err74];
}
else {
vErrors.push(err74);
}
errors++;
}
}
if(coerced37 !== undefined){
data39 = coerced37;
if(data !== undefined){
data["WEBHOOK_DELIVERY"] = coerced37;
}
}
}
}
else {
const err75 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err75];
}
else {
vErrors.push(err75);
}
errors++;
}
validate0.errors = vErrors;
return errors === 0;
}
validate0.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

/** The environment as env-schema.ts describes it, with defaults filled in and strings coerced. */
export const validateEnv: ValidateFunction = validate0
