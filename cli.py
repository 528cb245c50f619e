"""`python cli.py ...`: the command line of app/cli.py, kept at the top of the checkout where the README runs it."""
from app.cli import cli

if __name__ == "__main__":
    cli()
