/** Where the API is and the dashboard's client id: /dashboard/config.json (npm start makes it; on AWS the stack deploys it). */
export interface DashboardConfig {
  /** The API's base URL: the OAuth issuer and the `resource` tokens are asked for. */
  apiUrl: string;
  clientId: string;
}

export async function loadConfig(): Promise<DashboardConfig> {
  const response = await fetch('/dashboard/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`/dashboard/config.json: ${response.status}`);
  return (await response.json()) as DashboardConfig;
}
