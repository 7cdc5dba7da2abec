// The one list of secret-bearing files (keys, keystores, env files, Terraform variables and state,
// credential files). The indexer, drift, read_file and the MCP resources all ask isSecretFile;
// only a person's explicit `allow` glob lets such a file into the index (its text still redacted).

import picomatch from 'picomatch';

export const SECRET_FILE_GLOBS: readonly string[] = [
  '**/.env',
  '**/.env.*',
  '**/*.tfvars',
  '**/*.tfvars.json',
  '**/*.tfstate',
  '**/*.tfstate.*',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/*.jks',
  '**/*.keystore',
  '**/*.kdbx',
  '**/id_rsa',
  '**/id_dsa',
  '**/id_ecdsa',
  '**/id_ed25519',
  '**/.npmrc',
  '**/.pypirc',
  '**/.netrc',
  '**/.htpasswd',
  '**/.pgpass',
  '**/secrets.yaml',
  '**/secrets.yml',
  '**/secrets.json',
  '**/*.secret.yaml',
  '**/*.secret.yml',
  '**/credentials',
  '**/credentials.*',
  // Private keys in other formats, saved Terraform plans (they hold variable values in clear), tool tokens.
  '**/*.p8',
  '**/*.ppk',
  '**/*.tfplan',
  '**/.git-credentials',
  '**/.terraformrc',
  '**/terraform.rc',
  '**/.vault-token',
  // Cluster and cloud credentials: kubeconfigs (client keys, tokens), service-account keys, registry logins.
  '**/kubeconfig',
  '**/kubeconfig.*',
  '**/*.kubeconfig',
  '**/*-kubeconfig.*',
  '**/.kube/config',
  '**/*service-account*.json',
  '**/*service_account*.json',
  '**/*-sa.json',
  '**/*-sa-key.json',
  '**/gcp-sa*.json',
  '**/gcloud/**/*.json',
  '**/application_default_credentials.json',
  '**/.docker/config.json',
  '**/.dockercfg',
  '**/.s3cfg',
  '**/.boto',
  '**/.azure/**',
  '**/.aws/**',
  '**/.envrc',
  // .NET settings hold connection strings and keys; Kubernetes Secret manifests hold base64 values.
  '**/appsettings.json',
  '**/appsettings.*.json',
  '**/secret.yaml',
  '**/secret.yml',
  '**/*-secret.yaml',
  '**/*-secret.yml',
  '**/*.secrets.*',
  '**/*.sealed-secret.*',
  '**/sops.*',
  '**/*.ovpn',
  '**/*.asc',
  '**/secring.*',
  '**/*.gpg',
];

// Case-insensitive: `PROD.TFVARS` and `Credentials.json` carry the same secrets.
// Compiled at the first question, not when the bundle loads (a cold command that never asks skips it).
let matcher: ((path: string) => boolean) | undefined;

/** Whether a workspace-relative path (with `/`) names a secret-bearing file. */
export function isSecretFile(path: string): boolean {
  matcher ??= picomatch([...SECRET_FILE_GLOBS], { dot: true, nocase: true });
  return matcher(path);
}
