using BLite.Cli.Commands;

namespace BLite.Cli;

internal static class Program
{
    private static int Main(string[] args) => CliApplication.Run(args, CommandContext.FromConsole());
}
