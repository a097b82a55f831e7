"""``python -m kemps_sim`` runs the command line."""

import sys

from kemps_sim.cli import main

sys.exit(main())
