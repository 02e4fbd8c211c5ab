// STS's client and the one command the tenant roles need, in a module of their own: sts.ts
// imports this one lazily, so a bundle carries only AssumeRole of the STS client (a lazy
// import of the package itself would keep every one of its commands).
export { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
