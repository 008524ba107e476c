using System.Net;
using System.Security.Cryptography;
using System.Text;
using Microsoft.AspNetCore.Http;

namespace BLite.Cli.Studio;

/// <summary>
/// The gate in front of every request. The studio exposes a database on someone's machine, so:
/// the Host header must name this server by loopback address or IP literal (a DNS name that
/// resolves here, as in DNS rebinding, is refused); every request carries the random token, as an
/// HttpOnly SameSite=Strict cookie set by the first page load with <c>?token=</c>; and every
/// mutation carries a header that a cross-site form cannot send and a cross-site script could send
/// only after a CORS preflight, which the studio never grants.
/// </summary>
internal sealed class StudioSecurity
{
    /// <summary>The header every non-GET request needs; its value is fixed, its presence is what a form cannot forge.</summary>
    public const string MutationHeader = "X-BLite-Studio";

    private readonly byte[] _token;
    private readonly Func<int> _port;
    private readonly StudioOptions _options;

    public StudioSecurity(string token, Func<int> port, StudioOptions options)
    {
        _token = Encoding.ASCII.GetBytes(token);
        _port = port;
        _options = options;
    }

    /// <summary>Cookies ignore ports, so two studios on one machine each need their own name.</summary>
    public static string CookieName(int port) => "blite-studio-" + port.ToString(System.Globalization.CultureInfo.InvariantCulture);

    public async Task InvokeAsync(HttpContext context, RequestDelegate next)
    {
        var request = context.Request;
        var response = context.Response;
        response.Headers["X-Content-Type-Options"] = "nosniff";
        response.Headers["Referrer-Policy"] = "no-referrer";
        response.Headers["Cache-Control"] = "no-store";
        response.Headers["Content-Security-Policy"] = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'";

        if (!HostIsThisServer(request.Host))
        {
            await Refuse(context, StatusCodes.Status403Forbidden,
                $"refused: the Host header '{request.Host}' does not name this studio (use http://127.0.0.1:{_port()}/).").ConfigureAwait(false);
            return;
        }

        var cookieName = CookieName(_port());
        if (request.Query.TryGetValue("token", out var offered))
        {
            if (!HttpMethods.IsGet(request.Method) || !Matches(offered.ToString()))
            {
                await Refuse(context, StatusCodes.Status401Unauthorized, "refused: the access token is wrong; open the URL that 'blite studio' printed.").ConfigureAwait(false);
                return;
            }

            // The token leaves the address bar (and the history) at once; from here on the cookie carries it.
            response.Cookies.Append(cookieName, Encoding.ASCII.GetString(_token), new CookieOptions
            {
                HttpOnly = true,
                SameSite = SameSiteMode.Strict,
                Path = "/",
                IsEssential = true,
            });
            response.Redirect(request.PathBase + request.Path);
            return;
        }

        if (!request.Cookies.TryGetValue(cookieName, out var cookie) || !Matches(cookie))
        {
            await Refuse(context, StatusCodes.Status401Unauthorized, "refused: this studio needs its access token; open the URL that 'blite studio' printed.").ConfigureAwait(false);
            return;
        }

        if (!HttpMethods.IsGet(request.Method) && !HttpMethods.IsHead(request.Method))
        {
            if (request.Headers[MutationHeader] != "1")
            {
                await Refuse(context, StatusCodes.Status403Forbidden, $"refused: a {request.Method} request needs the {MutationHeader} header, which the studio's pages send and a form on another site cannot.").ConfigureAwait(false);
                return;
            }

            // Belt and braces: a browser names the page that sent a change; only the studio's own may.
            var origin = request.Headers.Origin.ToString();
            if (origin.Length > 0 && !string.Equals(origin, $"{request.Scheme}://{request.Host}", StringComparison.OrdinalIgnoreCase))
            {
                await Refuse(context, StatusCodes.Status403Forbidden, $"refused: a change sent by the page of another origin ({origin}).").ConfigureAwait(false);
                return;
            }
        }

        await next(context).ConfigureAwait(false);
    }

    private bool Matches(string? offered) =>
        offered is not null && CryptographicOperations.FixedTimeEquals(Encoding.ASCII.GetBytes(offered), _token);

    /// <summary>
    /// A name other than localhost could be a DNS name an attacker points at 127.0.0.1 after the
    /// browser has loaded their page (DNS rebinding); an IP literal or localhost cannot.
    /// </summary>
    private bool HostIsThisServer(HostString host)
    {
        if (!host.HasValue || host.Port != _port())
        {
            return false;
        }

        if (string.Equals(host.Host, "localhost", StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        var literal = host.Host.StartsWith('[') && host.Host.EndsWith(']') ? host.Host[1..^1] : host.Host;
        if (!IPAddress.TryParse(literal, out var address))
        {
            return false;
        }

        return IPAddress.IsLoopback(address) || (!_options.IsLoopbackOnly && (IsWildcard(_options.ListenAddress) || address.Equals(_options.ListenAddress)));
    }

    private static bool IsWildcard(IPAddress address) => address.Equals(IPAddress.Any) || address.Equals(IPAddress.IPv6Any);

    private static Task Refuse(HttpContext context, int status, string message)
    {
        context.Response.StatusCode = status;
        context.Response.ContentType = "text/plain; charset=utf-8";
        return context.Response.WriteAsync(message + "\n");
    }
}
