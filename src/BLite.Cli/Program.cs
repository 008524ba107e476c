namespace BLite.Cli;

internal static class Program
{
    private static int Main(string[] args)
    {
        Console.Error.WriteLine("usage: blite <command> [options]");
        return args.Length == 0 ? 1 : 2;
    }
}
