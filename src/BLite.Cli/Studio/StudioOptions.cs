using System.Net;

namespace BLite.Cli.Studio;

/// <summary>What <c>blite studio</c> was asked for.</summary>
/// <param name="Port">0 picks a free port.</param>
/// <param name="ListenAddress">The interface to bind; loopback unless the user named another with --listen.</param>
internal sealed record StudioOptions(string DatabasePath, int Port, bool ReadOnly, IPAddress ListenAddress)
{
    public bool IsLoopbackOnly => IPAddress.IsLoopback(ListenAddress);
}
