using Npgsql;

namespace BLite.Cli.Migration;

/// <summary>
/// Reads a PostgreSQL address as users write it: a URL (<c>postgresql://user:password@host:5432/db</c>,
/// <c>postgres://...</c>, <c>?host=/run/postgresql</c> for a Unix socket, <c>?search_path=...</c>) or an
/// Npgsql connection string (<c>Host=...;Database=...</c>).
/// </summary>
internal static class PostgreSqlAddress
{
    public static bool IsPostgreSql(string text) =>
        text.StartsWith("postgresql://", StringComparison.OrdinalIgnoreCase) || text.StartsWith("postgres://", StringComparison.OrdinalIgnoreCase)
        || text.Contains("Host=", StringComparison.OrdinalIgnoreCase);

    public static string ToConnectionString(string text)
    {
        if (!text.Contains("://", StringComparison.Ordinal))
        {
            return new NpgsqlConnectionStringBuilder(text).ConnectionString;
        }

        var uri = new Uri(text);
        var builder = new NpgsqlConnectionStringBuilder();
        if (!string.IsNullOrEmpty(uri.Host))
        {
            builder.Host = uri.Host;
        }

        if (uri.Port > 0)
        {
            builder.Port = uri.Port;
        }

        if (uri.UserInfo.Length > 0)
        {
            var colon = uri.UserInfo.IndexOf(':', StringComparison.Ordinal);
            builder.Username = Uri.UnescapeDataString(colon < 0 ? uri.UserInfo : uri.UserInfo[..colon]);
            if (colon >= 0)
            {
                builder.Password = Uri.UnescapeDataString(uri.UserInfo[(colon + 1)..]);
            }
        }

        var database = uri.AbsolutePath.TrimStart('/');
        if (database.Length > 0)
        {
            builder.Database = Uri.UnescapeDataString(database);
        }

        foreach (var pair in uri.Query.TrimStart('?').Split('&', StringSplitOptions.RemoveEmptyEntries))
        {
            var equals = pair.IndexOf('=', StringComparison.Ordinal);
            var key = Uri.UnescapeDataString(equals < 0 ? pair : pair[..equals]);
            var value = equals < 0 ? "" : Uri.UnescapeDataString(pair[(equals + 1)..]);
            switch (key.ToLowerInvariant())
            {
                case "host":
                    builder.Host = value;
                    break;
                case "port":
                    builder.Port = int.Parse(value, System.Globalization.CultureInfo.InvariantCulture);
                    break;
                case "user":
                    builder.Username = value;
                    break;
                case "password":
                    builder.Password = value;
                    break;
                case "search_path":
                    builder.SearchPath = value;
                    break;
                case "sslmode":
                    builder.SslMode = Enum.Parse<SslMode>(value.Replace("-", "", StringComparison.Ordinal), ignoreCase: true);
                    break;
                default:
                    throw new ArgumentException($"the PostgreSQL URL parameter '{key}' is not supported (use host, port, user, password, search_path, sslmode, or an Npgsql connection string).");
            }
        }

        return builder.ConnectionString;
    }
}
