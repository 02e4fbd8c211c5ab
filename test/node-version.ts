/**
 * One line at the top of every test run: the Node.js the tests run on, which is the one
 * the `node` devDependency installs (Lambda's), not necessarily the machine's.
 */
export default function printNodeVersion(): void {
  console.log(`Tests run on Node.js ${process.version}`);
}
